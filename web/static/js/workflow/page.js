// The workflow page (#/w/<workflow_id>): the plan's canvas, its editing,
// the conversation, the activity and the history slider. The canvas shown
// is always the server's (GET …/canvas): every change this tab makes goes
// to the canvas API as a batch, every event on the workflow's stream (and
// every acknowledgement of this tab's own changes: echo exclusion) makes
// the page read the canvas again, debounced, until it has caught up with
// the stream. The page keeps no fold of its own.
import { describe } from "../api.js";
import { agentName, knownName, lookUpNames } from "../agent_names.js";
import { whoAmI } from "../auth.js";
import { badge, fill, h, label, randomHex } from "../dom.js";
import { refetcher } from "../refetch.js";
import { sharingPanel } from "../sharing.js";
import { followStream } from "../stream.js";
import { installActivity } from "./activity.js";
import { installApprovals } from "./approve.js";
import { createCanvas, fetchCanvas } from "./canvas.js";
import { installChanges } from "./changes.js";
import { installChat } from "./chat.js";
import { installHistory } from "./history.js";
import { installPanel } from "./panel.js";
import { installPointer } from "./pointer.js";
import { installViewport } from "./viewport.js";

// layout builds the page's controls.
function layout(clientId) {
  return {
    title: h("h1", { style: "margin:0", id: "wf-title" }, "加载中……"),
    status: h("span", { id: "wf-status" }),
    version: h("span", { id: "wf-version", class: "muted small" }),
    back: h("a", { id: "wf-back" }, ""),
    run: h("button", { type: "button", id: "wf-run" }, "运行"),
    cancel: h("button", { type: "button", id: "wf-cancel", class: "ghost" }, "取消"),
    add: h("button", { type: "button", id: "wf-add", class: "ghost" }, "添加步骤"),
    connect: h("button", { type: "button", id: "wf-connect", class: "ghost", "aria-pressed": "false" }, "连线"),
    note: h("span", { id: "wf-lock-note", class: "small muted" }),
    sharing: h("div", { class: "wf-sharing" }),
    conflict: h("div", { id: "wf-conflict", class: "wf-conflict", role: "alert", hidden: true }),
    error: h("div", { id: "wf-error", class: "error", role: "alert" }),
    svgWrap: h("div", { class: "wf-canvas-wrap", id: "wf-canvas-frame" }),
    zoomBar: h("div", { class: "wf-zoom-bar", role: "toolbar", "aria-label": "缩放" }),
    panel: h("section", { class: "card wf-panel", id: "wf-panel", hidden: true }),
    approvals: h("section", { class: "card wf-approvals-card", id: "wf-approvals", hidden: true }),
    chatLog: h("ol", { id: "wf-chat-log", class: "wf-chat-log" }),
    chatInput: h("input", { id: "wf-chat-input", maxlength: 2000, placeholder: "例如：在活动当天之前加一个彩排" }),
    chatSend: h("button", { type: "submit", id: "wf-chat-send" }, "发送"),
    chatForm: h("form", { class: "row wf-chat-form" }),
    activity: h("ol", { id: "wf-activity", class: "wf-activity" }),
    slider: h("input", { type: "range", id: "wf-history-slider", min: 0, max: 0, value: 0, step: 1, "aria-label": "历史位置" }),
    histPos: h("div", { id: "wf-history-position", class: "small muted" }),
    histNow: h("button", { type: "button", id: "wf-history-now", class: "ghost", hidden: true }, "回到现在"),
    canvas: createCanvas(clientId),
  };
}

// mount puts the controls on the page: the head, then the canvas with
// the history under it and, beside them, the approvals, the panel, the
// conversation and the activity (on a narrow screen all stacked: the
// canvas, the approvals, the panel, the conversation, the history, the
// activity; style.css orders them).
function mount(app, ui) {
  ui.svgWrap.append(ui.canvas.svg);
  ui.chatForm.append(ui.chatInput, ui.chatSend);
  app.append(
    h("section", { class: "card wf-head" },
      h("div", { class: "row" }, ui.title, ui.status, ui.version),
      h("div", { class: "row wf-bar" }, ui.run, ui.cancel, h("span", { class: "wf-sep" }), ui.add, ui.connect, ui.note, h("span", { class: "wf-grow" }), ui.back),
      ui.sharing, ui.conflict, ui.error),
    h("div", { class: "wf-grid" },
      h("div", { class: "wf-main" },
        h("section", { class: "card wf-canvas-card" }, ui.svgWrap,
          h("div", { class: "wf-canvas-foot" }, h("p", { class: "small muted wf-legend" },
            "拖动步骤可移动位置，拖动空白处可平移，滚轮或双指缩放；点击步骤可编辑；“连线”模式下先点前置步骤，再点后续步骤；点击连线可删除。"), ui.zoomBar)),
        h("section", { class: "card wf-history", id: "wf-history" }, h("h2", {}, "历史"),
          h("p", { class: "small muted" }, "拖动滑块，查看执行计划在任一事件时的样子（只读）。"), ui.slider, h("div", { class: "row" }, ui.histPos, ui.histNow))),
      h("div", { class: "wf-side" },
        ui.approvals, ui.panel,
        h("section", { class: "card wf-chat-card", id: "wf-chat" }, h("h2", {}, "和助手对话"), ui.chatLog, ui.chatForm),
        h("section", { class: "card wf-activity-card" }, h("h2", {}, "动态"), ui.activity))));
}

// newWorkflowState is what the page's parts share: the canvas as the
// server last gave it, the view's state, and (set by each part) their
// functions.
function newWorkflowState(id, clientId, ui) {
  const wf = {
    id, clientId, ui,
    c: null, // the server's canvas
    wanted: 0, // the stream's last cursor that changes the canvas: a read older than it is read again
    viewAt: 0, viewCanvas: null, // history: the cursor shown (0: now) and its canvas
    selected: null, connectFrom: null, connectMode: false, drag: null, pendingRender: false,
    panelRefresh: null, closed: false,
    seenTitles: new Map(), // node id → its title as the stream's events gave it (a node not read yet, or deleted since)
    history: [], // the stream's events: {cursor, event_type, timestamp, summary, payload, metadata} (an acknowledgement: mine, no summary)
  };
  wf.ended = () => wf.c && ["completed", "failed", "cancelled"].includes(wf.c.status);
  wf.running = () => wf.c && wf.c.status === "running";
  wf.structuralLocked = () => !wf.c || wf.viewAt > 0 || wf.running() || wf.ended();
  wf.readOnly = () => !wf.c || wf.viewAt > 0 || wf.ended();
  wf.nodeById = (nid) => wf.c && wf.c.nodes.find((n) => n.id === nid);
  // titleOf names a node for people: its title on the canvas, else as an
  // event gave it, else 已删除的步骤.
  wf.titleOf = (nid) => {
    const n = wf.nodeById(nid) || (wf.viewCanvas && wf.viewCanvas.nodes.find((m) => m.id === nid));
    return n ? n.title : wf.seenTitles.get(nid) || "已删除的步骤";
  };
  // sawEvent remembers the title an event gives a node.
  wf.sawEvent = (ev) => {
    const n = ev.payload && ev.payload.node;
    if (n && n.id && n.title) wf.seenTitles.set(n.id, n.title);
  };
  // nameOf names an agent for people: the workflow's names, else asked of
  // the server (the canvas is drawn again when the answer comes).
  wf.nameOf = (aid) => {
    const c = wf.viewCanvas || wf.c;
    if (c && c.names[aid]) return c.names[aid];
    if (knownName(aid) === undefined) lookUpNames([aid]).then(() => wf.scheduleRender());
    return agentName(aid);
  };
  return wf;
}

// render shows the canvas (the history's when the slider is back in time).
function render(wf) {
  const { ui, c } = wf;
  if (wf.closed || !c) return;
  if (wf.drag) { wf.pendingRender = true; return; }
  const shown = wf.viewAt > 0 && wf.viewCanvas ? wf.viewCanvas : c;
  ui.title.textContent = c.title || wf.id;
  fill(ui.status, badge(shown.status === "draft" ? "processing" : shown.status, label(shown.status)));
  ui.status.dataset.status = shown.status;
  ui.version.textContent = "版本 v" + shown.version + (wf.viewAt > 0 ? "（历史）" : "");
  ui.version.dataset.version = shown.version;
  ui.run.disabled = wf.viewAt > 0 || c.status !== "draft";
  ui.cancel.disabled = wf.viewAt > 0 || !(c.status === "draft" || c.status === "running");
  ui.add.disabled = ui.connect.disabled = wf.structuralLocked();
  if (wf.structuralLocked() && wf.connectMode) wf.setConnect(false);
  ui.note.textContent = wf.viewAt > 0 ? "历史视图：只读" : wf.running() ? "执行中：结构由服务器决定，只能移动位置"
    : wf.ended() ? "执行已结束：只读" : wf.connectMode ? (wf.connectFrom ? "连线：再点后续步骤（" + wf.titleOf(wf.connectFrom) + " → ?）" : "连线：先点前置步骤") : "";
  ui.canvas.draw(shown, { readOnly: wf.readOnly(), selected: wf.selected, connectFrom: wf.connectFrom, titleOf: wf.titleOf,
    nameOf: wf.nameOf, owner: shown.user_id });
  wf.syncView();
  if (wf.selected && wf.selected.node && !wf.nodeById(wf.selected.node)) wf.closePanel();
  else if (wf.panelRefresh) wf.panelRefresh();
  wf.approvalsRefresh();
}

// installReads gives wf its reads of the server's canvas: snapshot takes a
// canvas, reload reads it now, refresh reads it soon (a burst of events is
// one read, and a read behind the stream is made again), stopReads ends
// them (the page closed).
function installReads(wf) {
  wf.snapshot = (cv) => {
    if (wf.c && cv.cursor < wf.c.cursor) return; // an older read answered late
    wf.c = cv;
    wf.scheduleRender();
  };
  const reads = refetcher({
    read: () => fetchCanvas(wf.id),
    apply: wf.snapshot,
    wantedCursor: () => wf.wanted,
    onError: (e) => { wf.ui.error.textContent = describe(e); },
  });
  wf.reload = reads.reload;
  wf.refresh = (cursor) => {
    wf.wanted = Math.max(wf.wanted, cursor || 0);
    reads.refresh();
  };
  wf.stopReads = reads.cancel;
  let queued = false;
  wf.scheduleRender = () => {
    if (queued) return;
    queued = true;
    // A timer, not requestAnimationFrame: a tab in the background still follows the stream.
    setTimeout(() => { queued = false; render(wf); }, 16);
  };
}

export function workflowPage(app, id) {
  const clientId = "tab-" + randomHex(); // a fresh one per page load: two tabs differ
  const ui = layout(clientId);
  mount(app, ui);
  const wf = newWorkflowState(id, clientId, ui);
  installReads(wf);
  installActivity(wf);
  installChanges(wf);
  installPanel(wf);
  installApprovals(wf);
  installViewport(wf);
  installPointer(wf);
  installChat(wf);
  installHistory(wf);
  let stopStream = null;
  start(wf, app, (stop) => { stopStream = stop; });
  return () => { wf.closed = true; wf.stopReads(); if (stopStream) stopStream(); };
}

// start reads the canvas, the history before it and the conversation, then
// follows the workflow's stream from the canvas's cursor.
async function start(wf, app, following) {
  const { id, ui } = wf;
  let cv;
  try {
    cv = await fetchCanvas(id);
  } catch (e) {
    fill(app, h("section", { class: "card" }, h("p", { class: "error" }, e.status === 404 ? "没有这个执行计划（或它没有共享给你）。" : describe(e))));
    return;
  }
  wf.me = await whoAmI().catch(() => null); // whose turns are 我 in the conversation
  if (wf.closed) return;
  wf.snapshot(cv);
  if (cv.demand_id) {
    ui.back.setAttribute("href", "#/n/" + cv.demand_id);
    ui.back.textContent = "← 返回协商";
    fill(ui.sharing, sharingPanel(cv.demand_id));
  } else { // a workflow of one's own: no negotiation to go back to, shared with no one
    ui.back.setAttribute("href", "#/");
    ui.back.textContent = "← 我的执行计划";
    fill(ui.sharing, h("p", { class: "small muted" }, "这是你自己新建的执行计划，只有你能看到。"));
  }
  wf.loadEarlier(cv.cursor || 0, cv.demand_id || cv.workflow_id); // a workflow of one's own correlates its events by its id
  wf.loadChat();
  // follow=true: the stream stays open after the workflow's end, since
  // the conversation (and a refused decision) goes on after it.
  following(followStream("/api/v1/events/workflows/" + encodeURIComponent(id) + "/stream?follow=true&client_id=" + encodeURIComponent(wf.clientId),
    wf.onEvent, { "towow.canvas.ack": wf.onAck }, cv.cursor || 0));
  render(wf);
}
