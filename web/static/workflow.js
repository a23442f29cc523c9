// ToWow console: the workflow page (#/w/<workflow_id>, issue 14). The DAG is
// hand-written SVG over the nodes' server-side positions; every change goes
// to the canvas API as a batch, every other tab's change arrives on the
// workflow's stream (this tab's own come back as towow.canvas.ack: echo
// exclusion). Loaded before app.js: only definitions at top level; app.js's
// helpers (h, fill, badge, api, describe, showBanner, clock, label) are used
// at call time. Every API text is set with textContent.
"use strict";

const WF_NODE_W = 200;
const WF_NODE_H = 64;
const WF_SVG_NS = "http://www.w3.org/2000/svg";
const WF_STRUCTURAL = ["node_added", "node_updated", "node_deleted", "edge_added", "edge_deleted"];
const WF_CHANGE_EVENTS = ["towow.workflow.node_added", "towow.workflow.node_updated", "towow.workflow.node_deleted",
  "towow.workflow.node_moved", "towow.workflow.edge_added", "towow.workflow.edge_deleted"];
const WF_NODE_STATUS = { pending: "待执行", running: "执行中", completed: "已完成", failed: "失败", skipped: "已跳过" };
const WF_NODE_TYPES = { task: "任务", approval: "审批", wait: "等待", http: "HTTP 调用", milestone: "里程碑" };
const WF_CHANGE_TEXT = {
  "towow.workflow.node_added": "新增步骤", "towow.workflow.node_updated": "修改步骤", "towow.workflow.node_deleted": "删除步骤",
  "towow.workflow.node_moved": "移动步骤", "towow.workflow.edge_added": "新增依赖", "towow.workflow.edge_deleted": "删除依赖",
  "towow.workflow.started": "开始执行", "towow.workflow.cancelled": "取消执行", "towow.conversation.message": "发送消息",
  "towow.decision.rejected": "决策被拒",
};

// wfRandom draws a short random hex id part.
function wfRandom() {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

// svgEl creates an SVG element with attributes and children (text as
// textContent, never markup).
function svgEl(tag, attrs, ...children) {
  const el = document.createElementNS(WF_SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// wfShort cuts a text to n characters with an ellipsis.
const wfShort = (s, n) => (s || "").length > n ? s.slice(0, n - 1) + "…" : (s || "");

// fetchCanvas reads the workflow's canvas (at a cursor for time travel).
function fetchCanvas(id, at) {
  return api("/api/v1/workflows/" + encodeURIComponent(id) + "/canvas" + (at ? "?at=" + at : ""));
}

// wfApplyEvent folds one workflow event into a canvas (idempotent: a node
// added twice is replaced). It returns the node the event is about, if any.
function wfApplyEvent(c, type, p) {
  const node = (id) => c.nodes.find((n) => n.id === id);
  if (typeof p.version === "number" && p.version > c.version) c.version = p.version;
  switch (type) {
    case "towow.workflow.node_added": {
      const i = c.nodes.findIndex((n) => n.id === p.node.id);
      const n = Object.assign({ status: "pending" }, p.node);
      if (i >= 0) c.nodes[i] = Object.assign(c.nodes[i], p.node); else c.nodes.push(n);
      return n;
    }
    case "towow.workflow.node_updated": {
      const n = node(p.node.id);
      if (n) Object.assign(n, p.node);
      return n;
    }
    case "towow.workflow.node_deleted": {
      const n = node(p.node_id);
      c.nodes = c.nodes.filter((x) => x.id !== p.node_id);
      c.edges = c.edges.filter((e) => e.from !== p.node_id && e.to !== p.node_id);
      return n || { id: p.node_id, title: p.node_id };
    }
    case "towow.workflow.node_moved": {
      const n = node(p.node_id);
      if (n) n.position = p.position;
      return n;
    }
    case "towow.workflow.edge_added":
      if (!c.edges.some((e) => e.from === p.edge.from && e.to === p.edge.to)) c.edges.push({ from: p.edge.from, to: p.edge.to });
      return null;
    case "towow.workflow.edge_deleted":
      c.edges = c.edges.filter((e) => !(e.from === p.edge.from && e.to === p.edge.to));
      return null;
    case "towow.workflow.started": c.status = "running"; return null;
    case "towow.workflow.completed": c.status = "completed"; return null;
    case "towow.workflow.failed": c.status = "failed"; return null;
    case "towow.workflow.cancelled": c.status = "cancelled"; return null;
    case "towow.node.started": {
      const n = node(p.node_id);
      if (n) Object.assign(n, { status: "running", attempt: p.attempt, error: "" });
      return n;
    }
    case "towow.node.completed": {
      const n = node(p.node_id);
      if (n) Object.assign(n, { status: "completed", attempt: p.attempt, result: p.result, error: "" });
      return n;
    }
    case "towow.node.failed": {
      const n = node(p.node_id);
      if (n) Object.assign(n, { status: p.retry ? "pending" : "failed", attempt: p.attempt, error: p.error });
      return n;
    }
    case "towow.node.skipped": {
      const n = node(p.node_id);
      if (n) Object.assign(n, { status: "skipped", reason: p.reason });
      return n;
    }
  }
  return null;
}

// wfApplyChange applies one of this tab's own accepted changes to the
// canvas (the ack that follows carries no data).
function wfApplyChange(c, ch) {
  switch (ch.type) {
    case "node_added": wfApplyEvent(c, "towow.workflow.node_added", { node: Object.assign({ id: ch.node_id }, ch.data) }); break;
    case "node_updated": wfApplyEvent(c, "towow.workflow.node_updated", { node: Object.assign({ id: ch.node_id }, ch.data) }); break;
    case "node_deleted": wfApplyEvent(c, "towow.workflow.node_deleted", { node_id: ch.node_id }); break;
    case "node_moved": wfApplyEvent(c, "towow.workflow.node_moved", { node_id: ch.node_id, position: ch.data.position }); break;
    case "edge_added": wfApplyEvent(c, "towow.workflow.edge_added", { edge: ch.edge }); break;
    case "edge_deleted": wfApplyEvent(c, "towow.workflow.edge_deleted", { edge: ch.edge }); break;
  }
}

// wfFreeSpot finds a place on the grid the planner uses where no node is.
function wfFreeSpot(c) {
  for (let row = 0; row < 50; row++) {
    for (let col = 0; col < 8; col++) {
      const x = 40 + 260 * col, y = 40 + 120 * row;
      if (!c.nodes.some((n) => Math.abs(n.position.x - x) < WF_NODE_W + 20 && Math.abs(n.position.y - y) < WF_NODE_H + 20)) return { x, y };
    }
  }
  return { x: 40, y: 40 + 120 * c.nodes.length };
}

// wfEdgePath is an edge's curve from the right of its source to the left
// of its target.
function wfEdgePath(a, b) {
  const x1 = a.x + WF_NODE_W, y1 = a.y + WF_NODE_H / 2, x2 = b.x, y2 = b.y + WF_NODE_H / 2;
  const dx = Math.max(40, Math.abs(x2 - x1) / 2);
  return "M" + x1 + "," + y1 + " C" + (x1 + dx) + "," + y1 + " " + (x2 - dx) + "," + y2 + " " + x2 + "," + y2;
}

// workflowPage is the workflow's canvas: the DAG, its editing, the
// conversation, the activity and the history slider.
async function workflowPage(id) {
  const clientId = "tab-" + wfRandom(); // a fresh one per page load: two tabs differ
  const ui = {
    title: h("h1", { style: "margin:0", id: "wf-title" }, "加载中……"),
    status: h("span", { id: "wf-status" }),
    version: h("span", { id: "wf-version", class: "muted small" }),
    back: h("a", { id: "wf-back" }, ""),
    run: h("button", { type: "button", id: "wf-run" }, "运行"),
    cancel: h("button", { type: "button", id: "wf-cancel", class: "ghost" }, "取消"),
    add: h("button", { type: "button", id: "wf-add", class: "ghost" }, "添加步骤"),
    connect: h("button", { type: "button", id: "wf-connect", class: "ghost", "aria-pressed": "false" }, "连线"),
    note: h("span", { id: "wf-lock-note", class: "small muted" }),
    conflict: h("div", { id: "wf-conflict", class: "wf-conflict", role: "alert", hidden: true }),
    error: h("div", { id: "wf-error", class: "error", role: "alert" }),
    svgWrap: h("div", { class: "wf-canvas-wrap fit" }),
    zoom: h("button", { type: "button", id: "wf-zoom", class: "ghost small", "aria-pressed": "true" }, "适应宽度"),
    panel: h("section", { class: "card wf-panel", id: "wf-panel", hidden: true }),
    chatLog: h("ol", { id: "wf-chat-log", class: "wf-chat-log" }),
    chatInput: h("input", { id: "wf-chat-input", maxlength: 2000, placeholder: "例如：在活动当天之前加一个彩排" }),
    chatSend: h("button", { type: "submit", id: "wf-chat-send" }, "发送"),
    activity: h("ol", { id: "wf-activity", class: "wf-activity" }),
    slider: h("input", { type: "range", id: "wf-history-slider", min: 0, max: 0, value: 0, step: 1, "aria-label": "历史位置" }),
    histPos: h("div", { id: "wf-history-position", class: "small muted" }),
    histNow: h("button", { type: "button", id: "wf-history-now", class: "ghost", hidden: true }, "回到现在"),
  };
  const edgeLayer = svgEl("g", { class: "wf-edges" });
  const nodeLayer = svgEl("g", { class: "wf-nodes" });
  const svg = svgEl("svg", { id: "wf-canvas", class: "wf-canvas", "data-client": clientId },
    svgEl("defs", {}, svgEl("marker", { id: "wf-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
      svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "wf-arrowhead" }))),
    edgeLayer, nodeLayer);
  const nodeEls = new Map(); // node id → its <g>
  const edgeEls = new Map(); // "from\0to" → its <g>
  ui.svgWrap.append(svg);
  app.append(
    h("section", { class: "card wf-head" },
      h("div", { class: "row" }, ui.title, ui.status, ui.version),
      h("div", { class: "row wf-bar" }, ui.run, ui.cancel, h("span", { class: "wf-sep" }), ui.add, ui.connect, ui.note, h("span", { class: "wf-grow" }), ui.back),
      ui.conflict, ui.error),
    h("div", { class: "wf-grid" },
      h("div", { class: "wf-main" },
        h("section", { class: "card wf-canvas-card" }, ui.svgWrap,
          h("div", { class: "row wf-legend" }, h("span", { class: "small muted wf-grow" }, "拖动步骤可移动位置；点击步骤可编辑；“连线”模式下先点前置步骤，再点后续步骤；点击连线可删除。"), ui.zoom)),
        h("section", { class: "card wf-history", id: "wf-history" }, h("h2", {}, "历史"),
          h("p", { class: "small muted" }, "拖动滑块，查看执行计划在任一事件时的样子（只读）。"), ui.slider, h("div", { class: "row" }, ui.histPos, ui.histNow))),
      h("div", { class: "wf-side" },
        ui.panel,
        h("section", { class: "card", id: "wf-chat" }, h("h2", {}, "和助手对话"),
          ui.chatLog,
          h("form", { class: "row wf-chat-form", onsubmit: (e) => { e.preventDefault(); sendMessage(); } }, ui.chatInput, ui.chatSend)),
        h("section", { class: "card" }, h("h2", {}, "动态"), ui.activity))));

  // ---------- state ----------
  let c = null; // the canvas as this tab knows it
  let floor = 0; // events at or before this cursor are in the snapshot
  let lastCursor = 0;
  let viewAt = 0; // history: the cursor shown (0: now)
  let viewCanvas = null;
  let selected = null; // {node} or {edge}
  let connectFrom = null;
  let connectMode = false;
  let drag = null;
  let pendingRender = false;
  let inflight = 0;
  const mine = new Set(); // decision ids of this tab's accepted changes
  const unexplained = []; // acked structural decisions this tab did not send (e.g. its chat's)
  const history = []; // the stream's events: {cursor, type, timestamp}
  const localWrite = {}; // node id → cursor of this tab's last write to it
  const seenCursors = new Set();
  let closed = false;

  const ended = () => c && ["completed", "failed", "cancelled"].includes(c.status);
  const running = () => c && c.status === "running";
  const structuralLocked = () => !c || viewAt > 0 || running() || ended();
  const readOnly = () => !c || viewAt > 0 || ended();
  const nodeById = (nid) => c.nodes.find((n) => n.id === nid);
  const titleOf = (nid) => { const n = c && nodeById(nid); return n ? n.title : nid; };

  const log = (kind, text) => {
    ui.activity.prepend(h("li", { "data-kind": kind }, h("span", { class: "t" }, clock(new Date().toISOString())), h("span", {}, text)));
    while (ui.activity.children.length > 200) ui.activity.lastChild.remove();
  };
  const setVersion = (v) => { if (c && typeof v === "number" && v > c.version) c.version = v; };

  // ---------- rendering ----------
  const render = () => {
    if (closed || !c) return;
    if (drag) { pendingRender = true; return; }
    const shown = viewAt > 0 && viewCanvas ? viewCanvas : c;
    ui.title.textContent = c.title || id;
    fill(ui.status, badge(shown.status === "draft" ? "processing" : shown.status, label(shown.status)));
    ui.status.dataset.status = shown.status;
    ui.version.textContent = "版本 v" + shown.version + (viewAt > 0 ? "（历史）" : "");
    ui.version.dataset.version = shown.version;
    ui.run.disabled = viewAt > 0 || c.status !== "draft";
    ui.cancel.disabled = viewAt > 0 || !(c.status === "draft" || c.status === "running");
    ui.add.disabled = ui.connect.disabled = structuralLocked();
    if (structuralLocked() && connectMode) setConnect(false);
    ui.note.textContent = viewAt > 0 ? "历史视图：只读" : running() ? "执行中：结构由服务器决定，只能移动位置"
      : ended() ? "执行已结束：只读" : connectMode ? (connectFrom ? "连线：再点后续步骤（" + titleOf(connectFrom) + " → ?）" : "连线：先点前置步骤") : "";
    drawCanvas(shown);
    if (selected && selected.node && !nodeById(selected.node)) closePanel();
    else if (panelRefresh) panelRefresh();
  };

  const drawCanvas = (cv) => {
    const pos = {};
    let w = 600, hgt = 300;
    for (const n of cv.nodes) {
      const p = n.position || { x: 40, y: 40 };
      pos[n.id] = p;
      w = Math.max(w, p.x + WF_NODE_W + 60);
      hgt = Math.max(hgt, p.y + WF_NODE_H + 60);
    }
    svg.setAttribute("width", w);
    svg.setAttribute("height", hgt);
    svg.setAttribute("viewBox", "0 0 " + w + " " + hgt);
    svg.setAttribute("data-readonly", String(readOnly()));
    svg.setAttribute("data-status", cv.status);
    svg.setAttribute("data-version", cv.version);
    // Keyed by node id and edge: an element lives as long as its node or
    // edge does, so a render never pulls one from under the pointer.
    const seenEdges = new Set();
    cv.edges.filter((e) => pos[e.from] && pos[e.to]).forEach((e, i) => {
      const key = e.from + "\u0000" + e.to;
      seenEdges.add(key);
      let g = edgeEls.get(key);
      if (!g) {
        const attrs = { "data-from": e.from, "data-to": e.to };
        g = svgEl("g", { class: "wf-edge-group" },
          svgEl("path", Object.assign({ class: "wf-edge", "marker-end": "url(#wf-arrow)" }, attrs)),
          svgEl("path", Object.assign({ class: "wf-edge-hit" }, attrs), svgEl("title", {})));
        edgeEls.set(key, g);
      }
      const d = wfEdgePath(pos[e.from], pos[e.to]);
      for (const path of g.querySelectorAll("path")) if (path.getAttribute("d") !== d) path.setAttribute("d", d);
      g.querySelector("title").textContent = titleOf(e.from) + " → " + titleOf(e.to);
      g.classList.toggle("selected", !!(selected && selected.edge && selected.edge.from === e.from && selected.edge.to === e.to));
      if (edgeLayer.children[i] !== g) edgeLayer.insertBefore(g, edgeLayer.children[i] || null);
    });
    for (const [key, g] of edgeEls) if (!seenEdges.has(key)) { g.remove(); edgeEls.delete(key); }
    const seenNodes = new Set();
    cv.nodes.forEach((n, i) => {
      seenNodes.add(n.id);
      let g = nodeEls.get(n.id);
      if (!g) {
        g = svgEl("g", { "data-node": n.id, tabindex: 0 }, svgEl("title", {}), svgEl("rect", { class: "wf-box", width: WF_NODE_W, height: WF_NODE_H }),
          svgEl("text", { class: "wf-node-title", x: 12, y: 24 }), svgEl("text", { class: "wf-node-sub", x: 12, y: 44 }),
          svgEl("text", { class: "wf-node-status", x: WF_NODE_W - 10, y: 58, "text-anchor": "end" }));
        nodeEls.set(n.id, g);
      }
      const p = pos[n.id];
      const st = n.status || "pending";
      const sub = [WF_NODE_TYPES[n.type] || n.type, n.assignee_id, n.due].filter(Boolean).join(" · ");
      const sel = (selected && selected.node === n.id) || connectFrom === n.id;
      const set = (el, k, v) => { if (el.getAttribute(k) !== String(v)) el.setAttribute(k, String(v)); };
      set(g, "class", "wf-node s-" + st + (sel ? " selected" : "") + " t-" + n.type);
      set(g, "data-status", st);
      set(g, "data-title", n.title || "");
      set(g, "data-x", p.x);
      set(g, "data-y", p.y);
      set(g, "transform", "translate(" + p.x + "," + p.y + ")");
      set(g.querySelector("rect"), "rx", n.type === "milestone" ? 24 : 8);
      const [title, , t1, t2, t3] = g.children;
      title.textContent = (n.title || "") + (n.description ? "\n" + n.description : "") + "\n" + (WF_NODE_STATUS[st] || st);
      t1.textContent = wfShort(n.title, 13);
      t2.textContent = wfShort(sub, 26);
      t3.textContent = (WF_NODE_STATUS[st] || st) + (n.attempt > 1 ? " ×" + n.attempt : "");
      if (nodeLayer.children[i] !== g) nodeLayer.insertBefore(g, nodeLayer.children[i] || null);
    });
    for (const [key, g] of nodeEls) if (!seenNodes.has(key)) { g.remove(); nodeEls.delete(key); }
  };

  const scheduleRender = (() => {
    let queued = false;
    return () => {
      if (queued) return;
      queued = true;
      // A timer, not requestAnimationFrame: a tab in the background still follows the stream.
      setTimeout(() => { queued = false; render(); }, 16);
    };
  })();

  // ---------- sending changes ----------
  let lastBatch = null; // the changes of the last conflict, to reapply
  const send = async (changes, baseVersion) => {
    if (!c) return false;
    ui.error.textContent = "";
    inflight++;
    try {
      const out = await api("/api/v1/workflows/" + encodeURIComponent(id) + "/canvas/changes", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ client_id: clientId, base_version: baseVersion == null ? c.version : baseVersion, batch_id: "b-" + wfRandom(), changes }),
      });
      (out.decision_ids || []).forEach((d) => mine.add(d));
      for (const ch of changes) {
        wfApplyChange(c, ch);
        if (ch.node_id) localWrite[ch.node_id] = out.cursor || 0;
      }
      setVersion(out.version);
      if ((out.corrections || []).length) {
        log("correction", "协调者修正了你的修改：" + out.corrections.map((x) => x.field + "（" + (x.reason || x.rule || "") + "）").join("；"));
        await reload();
      }
      hideConflict();
      scheduleRender();
      return true;
    } catch (e) {
      if (e.code === "TOWOW_CANVAS_CONFLICT") {
        showConflict(changes, e, baseVersion);
      } else if (e.code === "TOWOW_CANVAS_LOCKED") {
        ui.error.textContent = "执行中：结构由服务器决定，只能移动位置。（" + describe(e) + "）";
        log("locked", "修改被拒：工作流正在执行");
        await reload();
      } else if (e.code === "TOWOW_DECISION_REJECTED") {
        const errs = ((e.problem && e.problem.errors) || []).map((x) => (x.location ? x.location + "：" : "") + x.message).join("；");
        ui.error.textContent = "协调者拒绝了这个修改" + (e.problem && e.problem.rule ? "（规则 " + e.problem.rule + "）" : "") + "：" + (errs || e.message);
        log("rejected", "修改被拒：" + (errs || e.message));
        await reload();
      } else {
        ui.error.textContent = describe(e);
        await reload();
      }
      return false;
    } finally {
      inflight--;
      explainAcks();
    }
  };

  const showConflict = (changes, e, baseVersion) => {
    const p = e.problem || {};
    lastBatch = { changes, canvas: p.canvas || null };
    fill(ui.conflict,
      h("p", {}, h("b", {}, "修改冲突："), "你的修改基于 v" + (baseVersion == null ? c.version : baseVersion) + "，但其他人已把执行计划改到了 v" +
        (p.version || (p.canvas && p.canvas.version) || "?") + "。你的修改没有保存。"),
      h("p", { class: "small muted" }, p.detail || e.message),
      h("div", { class: "row" }, h("button", { type: "button", id: "wf-reapply", onclick: reapply }, "重新加载并重新应用"),
        h("button", { type: "button", class: "ghost", onclick: () => { hideConflict(); reload(); } }, "放弃我的修改")));
    ui.conflict.hidden = false;
    log("conflict", "冲突：其他人已修改（当前 v" + (p.version || "?") + "），你的修改未保存");
  };
  const hideConflict = () => { ui.conflict.hidden = true; fill(ui.conflict); };

  const reapply = async () => {
    if (!lastBatch) return;
    const { changes, canvas } = lastBatch;
    lastBatch = null;
    hideConflict();
    if (canvas && canvas.cursor >= lastCursor) snapshot(canvas); else await reload();
    // A change to a node deleted meanwhile cannot be reapplied.
    const still = changes.filter((ch) => ch.type === "node_added" || !ch.node_id || nodeById(ch.node_id));
    if (!still.length) { ui.error.textContent = "要修改的步骤已被删除，无法重新应用。"; return; }
    if (await send(still, c.version)) closePanel();
  };

  // ---------- snapshots and the stream ----------
  const snapshot = (cv) => {
    cv.nodes = cv.nodes || [];
    cv.edges = cv.edges || [];
    cv.participants = cv.participants || [];
    c = cv;
    floor = Math.max(floor, cv.cursor || 0);
    lastCursor = Math.max(lastCursor, floor);
    scheduleRender();
  };
  const reload = async () => {
    try { snapshot(await fetchCanvas(id)); } catch (e) { ui.error.textContent = describe(e); }
  };

  // explainAcks reloads the canvas when this tab's stream acknowledged a
  // structural change it did not send itself (its chat message's agent made
  // it): an ack carries no data.
  let explaining = false;
  const explainAcks = async () => {
    if (inflight > 0 || explaining) return;
    const unknown = unexplained.splice(0).filter((d) => !mine.has(d));
    if (!unknown.length) return;
    explaining = true;
    try { await reload(); } finally { explaining = false; }
  };

  const onAck = (msg) => {
    const cursor = Number(msg.lastEventId);
    const a = JSON.parse(msg.data);
    history.push({ cursor, type: a.ack_of, timestamp: a.timestamp, mine: true });
    updateSlider();
    if (cursor <= floor) return;
    lastCursor = Math.max(lastCursor, cursor);
    setVersion(a.version);
    if (a.ack_of && a.ack_of.startsWith("towow.conversation.")) loadChat();
    if (a.ack_of === "towow.decision.validated") { scheduleRender(); return; }
    if (WF_CHANGE_EVENTS.includes(a.ack_of) && a.ack_of !== "towow.workflow.node_moved") {
      if (a.decision_id && !mine.has(a.decision_id)) { unexplained.push(a.decision_id); explainAcks(); }
    }
    if (a.ack_of === "towow.workflow.started") c.status = "running";
    if (a.ack_of === "towow.workflow.cancelled") c.status = "cancelled";
    if (a.ack_of === "towow.conversation.message") log("ack", "你的消息已送达助手");
    else if (WF_CHANGE_TEXT[a.ack_of]) log("ack", "你的修改已确认（" + WF_CHANGE_TEXT[a.ack_of] + "）→ v" + (a.version || c.version));
    scheduleRender();
  };

  const onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    const ev = JSON.parse(msg.data);
    history.push({ cursor, type: ev.event_type, timestamp: ev.timestamp });
    updateSlider();
    if (cursor <= floor || seenCursors.has(cursor)) return; // a resumed stream never repeats; this guards anyway
    seenCursors.add(cursor);
    lastCursor = Math.max(lastCursor, cursor);
    const p = ev.payload || {};
    const t = ev.event_type;
    if (t.startsWith("towow.conversation.")) { loadChat(); return; }
    // This tab wrote the node after this event: its own value stands.
    const about = p.node_id || (p.node && p.node.id);
    if ((t === "towow.workflow.node_updated" || t === "towow.workflow.node_moved") && about && localWrite[about] > cursor) return;
    const before = about ? (nodeById(about) || {}).title : "";
    const n = wfApplyEvent(c, t, p);
    if (WF_CHANGE_EVENTS.includes(t)) {
      const what = t === "towow.workflow.edge_added" || t === "towow.workflow.edge_deleted"
        ? titleOf(p.edge.from) + " → " + titleOf(p.edge.to)
        : t === "towow.workflow.node_updated" && before && before !== p.node.title ? before + " → " + p.node.title
          : (n && n.title) || before || about;
      log("remote", "其他人：" + WF_CHANGE_TEXT[t] + " " + what + (p.version ? " → v" + p.version : ""));
    } else if (t === "towow.decision.rejected") {
      log("rejected", "其他人的修改被拒：" + (p.reason || p.rule));
    } else if (t.startsWith("towow.workflow.") || t.startsWith("towow.node.")) {
      const s = summarize({ names: {} }, ev);
      log("run", s[0] + "：" + (n ? n.title : s[1]) + (t === "towow.node.completed" && p.result && p.result.summary ? " — " + p.result.summary : "")
        + (t === "towow.node.failed" ? " — " + p.error : ""));
    }
    scheduleRender();
  };

  // ---------- the conversation ----------
  let chatSeq = 0;
  const loadChat = async () => {
    const mineSeq = ++chatSeq;
    try {
      const out = await api("/api/v1/workflows/" + encodeURIComponent(id) + "/messages");
      if (mineSeq !== chatSeq) return;
      const atBottom = ui.chatLog.scrollHeight - ui.chatLog.scrollTop - ui.chatLog.clientHeight < 60;
      fill(ui.chatLog, (out.turns || []).map((t) => h("li", { "data-message": t.message_id, "data-done": String(!!t.done), class: t.client_id === clientId ? "me" : "other" },
        h("div", { class: "wf-msg" }, h("span", { class: "who" }, t.client_id === clientId ? "我" : "其他人"), t.text),
        (t.steps || []).map((s) => h("div", { class: "wf-step small muted" }, "第 " + s.step + " 步：", (s.action && s.action.thought) || "",
          s.action && s.action.tool ? " → " + s.action.tool : "", s.observation ? "：" + s.observation : "")),
        t.reply ? h("div", { class: "wf-reply" + (t.question ? " question" : "") }, h("span", { class: "who" }, "助手"), t.reply)
          : t.done ? null : h("div", { class: "small muted" }, "助手思考中……"))));
      if (atBottom) ui.chatLog.scrollTop = ui.chatLog.scrollHeight;
    } catch (e) {
      if (mineSeq === chatSeq) fill(ui.chatLog, h("li", { class: "error" }, describe(e)));
    }
  };
  const sendMessage = async () => {
    const text = ui.chatInput.value.trim();
    if (!text) return;
    ui.chatSend.disabled = true;
    try {
      await api("/api/v1/workflows/" + encodeURIComponent(id) + "/messages", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ text, client_id: clientId }),
      });
      ui.chatInput.value = "";
      loadChat();
    } catch (e) {
      ui.error.textContent = describe(e);
    } finally {
      ui.chatSend.disabled = false;
    }
  };

  // ---------- run and cancel ----------
  const decide = async (type) => {
    ui.error.textContent = "";
    inflight++;
    try {
      const out = await api("/api/v1/workflows/" + encodeURIComponent(id) + "/decisions", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ decision_type: type, base_version: c.version, client_id: clientId }),
      });
      if (out.decision_id) mine.add(out.decision_id);
      setVersion(out.version);
      if (type === "execute_workflow" && c.status === "draft") c.status = "running";
      scheduleRender();
    } catch (e) {
      ui.error.textContent = describe(e);
      if (e.code === "TOWOW_DECISION_REJECTED") log("rejected", (type === "execute_workflow" ? "运行" : "取消") + "被拒：" + e.message);
    } finally {
      inflight--;
      explainAcks();
    }
  };
  ui.run.addEventListener("click", () => decide("execute_workflow"));
  ui.cancel.addEventListener("click", () => decide("cancel_workflow"));

  // ---------- the side panel: edit a node, add one, delete an edge ----------
  const field = (labelText, input) => h("label", { class: "wf-field" }, h("span", {}, labelText), input);
  const assigneeSelect = (value, fid) => h("select", { id: fid },
    h("option", { value: "" }, "（无）"),
    [...new Set([...(c.participants || []), value].filter(Boolean))].map((p) => h("option", { value: p, selected: p === value }, p)));
  let panelRefresh = null; // keeps an open panel's status and locks current without touching what is typed
  const closePanel = () => { selected = null; panelRefresh = null; ui.panel.hidden = true; fill(ui.panel); scheduleRender(); };

  const openNode = (nid) => {
    const n = nodeById(nid);
    if (!n) return;
    selected = { node: nid };
    const baseVersion = c.version; // the version this edit is based on
    const orig = { title: n.title || "", description: n.description || "", assignee_id: n.assignee_id || "", role: n.role || "", due: n.due || "" };
    const inputs = {
      title: h("input", { id: "wf-edit-title", value: orig.title, maxlength: 200 }),
      description: h("textarea", { id: "wf-edit-description", maxlength: 2000 }, orig.description),
      assignee_id: assigneeSelect(orig.assignee_id, "wf-edit-assignee"),
      role: h("input", { id: "wf-edit-role", value: orig.role, maxlength: 200 }),
      due: h("input", { id: "wf-edit-due", value: orig.due, maxlength: 100 }),
    };
    const save = h("button", { type: "submit", id: "wf-edit-save" }, "保存");
    const del = h("button", { type: "button", id: "wf-node-delete", class: "danger", onclick: async () => {
      if (await send([{ type: "node_deleted", node_id: nid }])) closePanel();
    } }, "删除步骤");
    const state = h("div", { id: "wf-node-state" });
    panelRefresh = () => {
      const m = nodeById(nid);
      if (!m) return;
      const locked = structuralLocked();
      for (const el of [...Object.values(inputs), save, del]) el.disabled = locked;
      fill(state,
        h("p", { class: "small" }, badge(m.status === "completed" ? "ok" : m.status === "failed" ? "bad" : m.status === "running" ? "processing" : "tag", WF_NODE_STATUS[m.status] || m.status),
          " ", WF_NODE_TYPES[m.type] || m.type, m.attempt ? " · 第 " + m.attempt + " 次尝试" : "", " · 编辑基于 v" + baseVersion,
          m.title !== orig.title ? h("span", { class: "warn-text" }, " · 已被他人改为「" + m.title + "」") : null),
        m.result && m.result.summary ? h("p", { class: "small wf-result" }, "结果：" + m.result.summary) : null,
        m.error ? h("p", { class: "small error" }, "错误：" + m.error) : null,
        m.reason ? h("p", { class: "small muted" }, "跳过原因：" + m.reason) : null);
    };
    fill(ui.panel,
      h("div", { class: "row" }, h("h2", { style: "margin:0" }, "步骤 ", h("code", {}, nid)), h("span", { class: "wf-grow" }),
        h("button", { type: "button", class: "ghost small", id: "wf-panel-close", onclick: closePanel }, "关闭")),
      state,
      h("form", { id: "wf-edit-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = {};
        for (const k of Object.keys(inputs)) if (inputs[k].value !== orig[k]) data[k] = inputs[k].value;
        if (!Object.keys(data).length) { closePanel(); return; }
        save.disabled = true;
        const ok = await send([{ type: "node_updated", node_id: nid, data }], baseVersion);
        save.disabled = false;
        if (ok) closePanel();
      } },
      field("标题", inputs.title), field("说明", inputs.description), field("负责人", inputs.assignee_id),
      field("角色", inputs.role), field("截止", inputs.due),
      h("div", { class: "row" }, save, del)));
    panelRefresh();
    ui.panel.hidden = false;
    scheduleRender();
  };

  const openEdge = (e) => {
    selected = { edge: e };
    panelRefresh = null;
    fill(ui.panel,
      h("div", { class: "row" }, h("h2", { style: "margin:0" }, "依赖"), h("span", { class: "wf-grow" }),
        h("button", { type: "button", class: "ghost small", onclick: closePanel }, "关闭")),
      h("p", {}, titleOf(e.from) + " → " + titleOf(e.to)),
      h("p", { class: "small muted" }, "“" + titleOf(e.to) + "”要等“" + titleOf(e.from) + "”完成后才开始。"),
      h("button", { type: "button", id: "wf-edge-delete", class: "danger", disabled: structuralLocked(), onclick: async () => {
        if (await send([{ type: "edge_deleted", edge: { from: e.from, to: e.to } }])) closePanel();
      } }, "删除这条依赖"));
    ui.panel.hidden = false;
    scheduleRender();
  };

  const openAdd = () => {
    if (structuralLocked()) return;
    selected = null;
    panelRefresh = null;
    const type = h("select", { id: "wf-new-type" }, Object.entries(WF_NODE_TYPES).filter(([k]) => k !== "http" && k !== "wait")
      .map(([k, v]) => h("option", { value: k }, v)));
    const title = h("input", { id: "wf-new-title", maxlength: 200, required: true });
    const description = h("textarea", { id: "wf-new-description", maxlength: 2000 });
    const assignee = assigneeSelect("", "wf-new-assignee");
    const due = h("input", { id: "wf-new-due", maxlength: 100, placeholder: "例如：活动前一周" });
    fill(ui.panel,
      h("div", { class: "row" }, h("h2", { style: "margin:0" }, "添加步骤"), h("span", { class: "wf-grow" }),
        h("button", { type: "button", class: "ghost small", onclick: closePanel }, "关闭")),
      h("form", { id: "wf-new-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = { type: type.value, title: title.value.trim(), description: description.value.trim(), position: wfFreeSpot(c) };
        if (assignee.value) data.assignee_id = assignee.value;
        if (due.value.trim()) data.due = due.value.trim();
        if (await send([{ type: "node_added", node_id: "n-" + wfRandom(), data }])) closePanel();
      } },
      field("类型", type), field("标题", title), field("说明", description), field("负责人", assignee), field("截止", due),
      h("div", { class: "row" }, h("button", { type: "submit", id: "wf-new-save" }, "添加"))));
    ui.panel.hidden = false;
    title.focus();
  };
  ui.add.addEventListener("click", openAdd);

  const setConnect = (on) => {
    connectMode = on;
    connectFrom = null;
    ui.connect.setAttribute("aria-pressed", String(on));
    ui.connect.classList.toggle("active", on);
    scheduleRender();
  };
  ui.connect.addEventListener("click", () => setConnect(!connectMode));
  ui.zoom.addEventListener("click", () => {
    const fit = !ui.svgWrap.classList.contains("fit");
    ui.svgWrap.classList.toggle("fit", fit);
    ui.zoom.setAttribute("aria-pressed", String(fit));
    ui.zoom.textContent = fit ? "适应宽度" : "原始大小";
  });

  // ---------- pointer: drag, click, connect ----------
  const toSvg = (ev) => {
    const m = svg.getScreenCTM();
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m ? m.inverse() : new DOMMatrix());
    return { x: pt.x, y: pt.y };
  };
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (!g || readOnly()) return;
    const n = nodeById(g.dataset.node);
    if (!n) return;
    const start = toSvg(ev);
    drag = { id: n.id, g, start, orig: { x: n.position.x, y: n.position.y }, moved: false, pointer: ev.pointerId };
    try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic pointer */ }
    ev.preventDefault();
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const p = toSvg(ev);
    const dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    const x = Math.max(0, Math.round(drag.orig.x + dx)), y = Math.max(0, Math.round(drag.orig.y + dy));
    drag.to = { x, y };
    drag.g.setAttribute("transform", "translate(" + x + "," + y + ")");
    drag.g.classList.add("dragging");
    const posOf = (nid) => nid === drag.id ? drag.to : (nodeById(nid) || {}).position;
    svg.querySelectorAll("path[data-from='" + CSS.escape(drag.id) + "'], path[data-to='" + CSS.escape(drag.id) + "']").forEach((path) => {
      const a = posOf(path.dataset.from), b = posOf(path.dataset.to);
      if (a && b) path.setAttribute("d", wfEdgePath(a, b));
    });
  });
  const endDrag = (ev, cancelled) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    try { svg.releasePointerCapture(d.pointer); } catch (e) { /* not captured */ }
    if (d.moved && d.to && !cancelled) {
      const n = nodeById(d.id);
      if (n) n.position = d.to;
      send([{ type: "node_moved", node_id: d.id, data: { position: d.to } }]);
    } else if (!d.moved && !cancelled) {
      nodeClicked(d.id);
    }
    if (pendingRender || d.moved) { pendingRender = false; scheduleRender(); }
  };
  svg.addEventListener("pointerup", (ev) => endDrag(ev, false));
  svg.addEventListener("pointercancel", (ev) => endDrag(ev, true));
  svg.addEventListener("click", (ev) => {
    const e = ev.target.closest && ev.target.closest("path.wf-edge-hit, path.wf-edge");
    if (e) { openEdge({ from: e.dataset.from, to: e.dataset.to }); return; }
    // A click on a node of a read-only canvas shows its details.
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (g && readOnly() && viewAt === 0) openNode(g.dataset.node);
  });
  svg.addEventListener("keydown", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (g && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); nodeClicked(g.dataset.node); }
  });
  const nodeClicked = async (nid) => {
    if (!connectMode) { openNode(nid); return; }
    if (!connectFrom) { connectFrom = nid; scheduleRender(); return; }
    if (connectFrom === nid) { connectFrom = null; scheduleRender(); return; }
    const from = connectFrom;
    connectFrom = null;
    await send([{ type: "edge_added", edge: { from, to: nid } }]);
    setConnect(false);
  };

  // ---------- history ----------
  const updateSlider = () => {
    const atEnd = viewAt === 0;
    ui.slider.max = Math.max(0, history.length - 1);
    if (atEnd) ui.slider.value = ui.slider.max;
    ui.slider.dataset.cursors = history.length;
    if (atEnd) ui.histPos.textContent = history.length ? "现在 · 共 " + history.length + " 个事件" : "";
  };
  let histSeq = 0;
  const showHistory = async () => {
    const i = Number(ui.slider.value);
    const mineSeq = ++histSeq;
    if (!history.length || i >= history.length - 1) { backToNow(); return; }
    const e = history[i];
    viewAt = e.cursor;
    ui.histNow.hidden = false;
    ui.histPos.textContent = "第 " + (i + 1) + " / " + history.length + " 个事件 · " + clock(e.timestamp) + " · " + (summarizeType(e.type));
    ui.histPos.dataset.cursor = e.cursor;
    try {
      const cv = await fetchCanvas(id, e.cursor);
      if (mineSeq !== histSeq || viewAt !== e.cursor) return;
      cv.nodes = cv.nodes || []; cv.edges = cv.edges || [];
      viewCanvas = cv;
      closePanel();
      render();
    } catch (err) {
      if (mineSeq === histSeq) ui.error.textContent = describe(err);
    }
  };
  const summarizeType = (t) => WF_CHANGE_TEXT[t] || label(t.replace("towow.", ""));
  const backToNow = () => {
    histSeq++;
    viewAt = 0;
    viewCanvas = null;
    ui.histNow.hidden = true;
    delete ui.histPos.dataset.cursor;
    updateSlider();
    render();
  };
  ui.slider.addEventListener("input", showHistory);
  ui.histNow.addEventListener("click", backToNow);

  // ---------- start ----------
  let stopStream = null;
  cleanup = () => { closed = true; if (stopStream) stopStream(); };
  try {
    const cv = await fetchCanvas(id);
    if (closed) return;
    snapshot(cv);
    ui.back.setAttribute("href", "#/n/" + cv.demand_id);
    ui.back.textContent = "← 返回协商";
    // The stream's earlier events, for the history slider.
    api("/api/v1/events?stream_id=" + encodeURIComponent("workflow-" + id) + "&limit=1000&until=" + (cv.cursor || 0)).then((out) => {
      const earlier = (out.events || []).filter((e) => e.cursor <= floor)
        .map((e) => ({ cursor: e.cursor, type: e.event_type, timestamp: e.timestamp }));
      history.unshift(...earlier.filter((e) => !history.some((x) => x.cursor === e.cursor)));
      history.sort((a, b) => a.cursor - b.cursor);
      updateSlider();
    }).catch(() => {});
  } catch (e) {
    fill(app, h("section", { class: "card" }, h("p", { class: "error" }, e.status === 404 ? "没有这个执行计划：" + id : describe(e))));
    return;
  }
  loadChat();
  const listeners = { "towow.canvas.ack": onAck };
  for (const t of EVENT_TYPES) listeners[t] = onEvent;
  stopStream = followStream("/api/v1/events/workflows/" + encodeURIComponent(id) + "/stream?client_id=" + encodeURIComponent(clientId),
    listeners, floor);
  render();
}
