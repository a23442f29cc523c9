// The negotiation page (#/n/<demand_id>): the tree's events live, as a
// timeline of the server's one-line summaries, and the tree's state beside
// it; when the root ends, its quality, the replay and the workflow the
// agreement became.
import { api, describe, showBanner } from "../api.js";
import { eventLabel } from "../catalog.js";
import { clock, fill, h, label } from "../dom.js";
import { qualityCard } from "../quality.js";
import { followStream } from "../stream.js";
import { renderHead, renderTree } from "./cards.js";
import { setupReplay } from "./replay.js";
import { newState, reduce, rootChannel } from "./state.js";

export function negotiationPage(app, demandId) {
  const state = newState(demandId);
  const seen = new Set();
  const events = [];
  const timeline = h("ol", { class: "timeline", id: "timeline" });
  const count = h("span", { class: "muted small", id: "event-count" });
  const head = h("div", {});
  const side = h("div", { id: "negotiation" });
  const replay = h("section", { class: "card replay", id: "replay", hidden: true });
  const quality = h("div", {});
  const wfLink = h("div", { id: "workflow-link", class: "row", hidden: true });
  app.append(h("section", { class: "card" }, head, wfLink),
    h("div", { class: "grid" },
      h("div", {}, quality, h("section", { class: "card" }, h("h2", {}, "事件时间线 ", count), timeline), replay),
      side));

  // onEnd shows what follows the root's end: the workflow the agreement
  // became (none after a failure), the replay and the quality scores.
  const onEnd = (root) => {
    if (root && root.completed && replay.hidden) setupReplay(replay, state, events);
    if (root && root.completed && !wfLink.dataset.loaded) {
      wfLink.dataset.loaded = "1";
      api("/api/v1/workflows?demand_id=" + encodeURIComponent(demandId)).then((out) => {
        const wf = (out.workflows || [])[0];
        if (!wf) return;
        fill(wfLink, h("a", { class: "button", id: "open-workflow", href: "#/w/" + encodeURIComponent(wf.workflow_id) }, "查看执行计划"),
          h("span", { class: "muted small" }, (wf.nodes || []).length + " 个步骤 · " + label(wf.status)));
        wfLink.hidden = false;
      }).catch(() => {});
    }
    if (((root && root.completed) || state.failure) && !quality.dataset.loaded) {
      quality.dataset.loaded = "1";
      api("/api/v1/demands/" + demandId + "/quality").then((q) => fill(quality, qualityCard(q))).catch(() => {});
    }
  };

  let scheduled = false;
  const render = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      renderHead(head, state);
      fill(side, ...renderTree(state));
      count.textContent = "（" + events.length + " 个）";
      onEnd(rootChannel(state));
    });
  };

  const onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    if (seen.has(cursor)) return; // a resumed stream never repeats; this guards anyway
    seen.add(cursor);
    const ev = JSON.parse(msg.data);
    events.push(ev);
    try {
      reduce(state, ev);
    } catch (e) { // an event this page does not understand still shows in the timeline
      console.error("event", cursor, ev.event_type, e);
    }
    const sub = ev.payload && ev.payload.demand_id && ev.payload.demand_id !== demandId;
    timeline.append(h("li", { "data-cursor": cursor, "data-type": ev.event_type, class: sub ? "sub" : null },
      h("span", { class: "t" }, clock(ev.timestamp)), h("span", {}, h("span", { class: "kind" }, eventLabel(ev.event_type)), ev.summary || "")));
    if (timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 120) timeline.scrollTop = timeline.scrollHeight;
    render();
  };
  const stop = followStream("/api/v1/events/negotiations/" + encodeURIComponent(demandId) + "/stream", onEvent, {}, 0, async () => {
    try { await api("/api/v1/demands/" + encodeURIComponent(demandId)); return false; } // there: a passing error, retry
    catch (e) { showBanner(e.status === 404 ? "没有这个协商：" + demandId : describe(e)); return e.status === 404; }
  });
  render();
  return stop;
}
