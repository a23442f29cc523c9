// The workflow page's stream: what its events and this tab's
// acknowledgements do (the canvas read again, the conversation reloaded,
// the history slider extended) and the activity list that says, for
// people, what happened — each line an event's label and the server's
// summary.
import { eventLabel } from "../catalog.js";
import { clock, h } from "../dom.js";

// isChange: the event type is a change of the plan's nodes or edges.
const isChange = (t) => /^towow\.workflow\.(node|edge)_/.test(t);
// isDecision: the event type is a change this tab may have asked for (a
// change of the plan, running or cancelling it, a refusal).
const isDecision = (t) => isChange(t) || /^towow\.workflow\.(started|cancelled)$|^towow\.decision\.rejected$/.test(t);

export function installActivity(wf) {
  const { ui } = wf;
  wf.log = (kind, text) => {
    ui.activity.prepend(h("li", { "data-kind": kind }, h("span", { class: "t" }, clock(new Date().toISOString())), h("span", {}, text)));
    while (ui.activity.children.length > 200) ui.activity.lastChild.remove();
  };

  // An acknowledgement is one of this tab's own changes coming back (echo
  // exclusion): it carries no data, so the canvas is read again.
  wf.onAck = (msg) => {
    const cursor = Number(msg.lastEventId);
    const a = JSON.parse(msg.data);
    wf.history.push({ cursor, event_type: a.ack_of, timestamp: a.timestamp, mine: true });
    wf.updateSlider();
    if (a.ack_of && a.ack_of.startsWith("towow.conversation.")) { wf.loadChat(); }
    else wf.refresh(cursor);
    if (a.ack_of === "towow.conversation.message") wf.log("ack", "你的消息已送达助手");
    else if (isDecision(a.ack_of)) wf.log("ack", "你的修改已确认（" + eventLabel(a.ack_of) + "）" + (a.version ? "→ v" + a.version : ""));
  };

  wf.onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    const ev = JSON.parse(msg.data);
    wf.history.push({ cursor, event_type: ev.event_type, timestamp: ev.timestamp, summary: ev.summary });
    wf.updateSlider();
    const t = ev.event_type;
    if (t.startsWith("towow.conversation.")) { wf.loadChat(); return; }
    wf.refresh(cursor);
    const line = activityOf(wf, ev);
    if (line) wf.log(...line);
  };
}

// activityOf is an event of another tab (or of the run) for the activity
// list: its kind and its line (none for a decision let through: the change
// it made has its own line).
function activityOf(wf, ev) {
  const t = ev.event_type, p = ev.payload || {};
  if (t === "towow.decision.validated") return null;
  const summary = ev.summary || "";
  if (isChange(t)) {
    const what = p.edge ? wf.titleOf(p.edge.from) + " → " + wf.titleOf(p.edge.to) + "：" + summary
      : p.node && p.node.title ? summary : wf.titleOf(p.node_id) + "：" + summary;
    return ["remote", "其他人：" + eventLabel(t) + " " + what + (p.version ? " → v" + p.version : "")];
  }
  if (t === "towow.decision.rejected") return ["rejected", "其他人的修改被拒：" + summary];
  const node = p.node_id && wf.nodeById(p.node_id);
  return ["run", eventLabel(t) + "：" + (node ? node.title + " · " : "") + summary];
}
