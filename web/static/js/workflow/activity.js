// The workflow page's stream: what its events and this tab's
// acknowledgements do (the canvas read again, the conversation reloaded,
// the history slider extended) and the activity list that says, for
// people, what happened — each line who did it, the event's label, the
// step's title and the server's summary (describe.js).
import { eventLabel } from "../catalog.js";
import { clock, h } from "../dom.js";
import { actorName, eventText } from "./describe.js";

// isChange: the event type is a change of the plan's nodes or edges.
const isChange = (t) => /^towow\.workflow\.(node|edge)_/.test(t);
// isDecision: the event type is a change this tab may have asked for (a
// change of the plan, running or cancelling it, a refusal).
const isDecision = (t) => isChange(t) || /^towow\.workflow\.(started|cancelled)$|^towow\.decision\.rejected$/.test(t);

export function installActivity(wf) {
  const { ui } = wf;
  const line = (kind, text, at) => h("li", { "data-kind": kind }, h("span", { class: "t" }, clock(at)), h("span", {}, text));
  wf.log = (kind, text) => {
    ui.activity.prepend(line(kind, text, new Date().toISOString()));
    while (ui.activity.children.length > 200) ui.activity.lastChild.remove();
  };

  // replayActivity lists the events read from the log before the page
  // opened (oldest first) under what happened since, so a reload keeps
  // the activity: each at its own time.
  wf.replayActivity = (events) => {
    for (const ev of events.slice().reverse()) {
      if (ui.activity.children.length >= 200) break;
      if (ev.event_type.startsWith("towow.conversation.")) continue;
      const l = activityOf(wf, ev);
      if (l) ui.activity.append(line(l[0], l[1], ev.timestamp));
    }
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
    else if (a.ack_of === "towow.decision.rejected") return; // the refusal has its line (changes.js)
    else if (isDecision(a.ack_of)) wf.log("ack", "你的修改已确认（" + eventLabel(a.ack_of) + "）");
  };

  wf.onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    const ev = JSON.parse(msg.data);
    wf.sawEvent(ev);
    wf.history.push({ cursor, event_type: ev.event_type, timestamp: ev.timestamp, summary: ev.summary, payload: ev.payload, metadata: ev.metadata });
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
  const who = actorName(wf, ev.metadata);
  if (isChange(t)) return ["remote", (who || "其他人") + "：" + eventText(wf, ev)];
  if (t === "towow.decision.rejected") return ["rejected", (who || "其他人") + "的修改被拒：" + (ev.summary || "")];
  return ["run", (who && !t.startsWith("towow.conversation.") ? who + "：" : "") + eventText(wf, ev)];
}
