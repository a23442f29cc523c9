// The negotiation page (#/n/<demand_id>): the tree's events live, as a
// timeline of the server's one-line summaries, and beside it the tree as
// the server folds it (GET …/view). Every event on the stream makes the
// page read the view again (a burst of events is one read), and a view
// behind the last event seen is read again, so the page keeps no fold of
// its own. When the root ends: its quality, the replay and the workflow
// the agreement became.
import { api, describe, showBanner } from "../api.js";
import { eventLabel } from "../catalog.js";
import { clock, fill, h, label } from "../dom.js";
import { qualityCard } from "../quality.js";
import { refetcher } from "../refetch.js";
import { sharingPanel } from "../sharing.js";
import { followStream } from "../stream.js";
import { renderHead, renderTree } from "./cards.js";
import { setupReplay } from "./replay.js";
import { fetchView, rootChannel } from "./view.js";

export function negotiationPage(app, demandId) {
  let view = null; // the server's view of the tree, null before the first read
  let last = 0; // the last cursor the stream delivered
  let closed = false;
  const events = [];
  const timeline = h("ol", { class: "timeline", id: "timeline" });
  const count = h("span", { class: "muted small", id: "event-count" });
  const head = h("div", {});
  const side = h("div", { id: "negotiation" });
  const replay = h("section", { class: "card replay", id: "replay", hidden: true });
  const quality = h("div", {});
  const wfLink = h("div", { id: "workflow-link", class: "row", hidden: true });
  app.append(h("section", { class: "card" }, head, wfLink, sharingPanel(demandId)),
    h("div", { class: "grid" },
      h("div", {}, quality, h("section", { class: "card" }, h("h2", {}, "事件时间线 ", count), timeline), replay),
      side));

  // onEnd shows what follows the root's end: the workflow the agreement
  // became (none after a failure), the replay (once the stream has
  // delivered every event the view folded: the slider moves over them)
  // and the quality scores.
  const onEnd = () => {
    const root = rootChannel(view);
    if (root && root.completed && replay.hidden && last >= view.cursor) setupReplay(replay, view, events);
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
    if (((root && root.completed) || (view && view.failure)) && !quality.dataset.loaded) {
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
      if (closed) return;
      renderHead(head, view);
      fill(side, ...renderTree(view));
      count.textContent = "（" + events.length + " 个）";
      onEnd();
    });
  };

  // The view, read again after events and while it is behind the stream
  // or fails (a 404 is the stream's to say).
  const reads = refetcher({
    read: () => fetchView(demandId),
    apply: (v) => { if (!view || v.cursor >= view.cursor) { view = v; render(); } },
    wantedCursor: () => last,
    onError: (e) => { if (e.status !== 404) console.error("negotiation view", describe(e)); },
    retryErrors: (e) => e.status !== 404,
  });

  const onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    last = Math.max(last, cursor);
    const ev = JSON.parse(msg.data);
    events.push(ev);
    const sub = ev.payload && ev.payload.demand_id && ev.payload.demand_id !== demandId;
    timeline.append(h("li", { "data-cursor": cursor, "data-type": ev.event_type, class: sub ? "sub" : null },
      h("span", { class: "t" }, clock(ev.timestamp)), h("span", {}, h("span", { class: "kind" }, eventLabel(ev.event_type)), ev.summary || "")));
    if (timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 120) timeline.scrollTop = timeline.scrollHeight;
    if (!view || cursor > view.cursor) reads.refresh();
    render();
  };
  // The stream ends with the tree (its root and every sub-negotiation):
  // after the last events, towow.stream.end, and following stops there.
  const stop = followStream("/api/v1/events/negotiations/" + encodeURIComponent(demandId) + "/stream", onEvent, {}, 0, async () => {
    try { await api("/api/v1/demands/" + encodeURIComponent(demandId)); return false; } // there: a passing error, retry
    catch (e) { showBanner(e.status === 404 ? "没有这个协商（或它没有共享给你）。" : describe(e)); return e.status === 404 || e.status === 401; }
  });
  reads.reload();
  render();
  return () => { closed = true; reads.cancel(); stop(); };
}
