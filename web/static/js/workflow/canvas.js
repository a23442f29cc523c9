// The workflow's canvas: read from the API, and drawn as hand-written SVG
// over the nodes' server-side positions, one <g> per node and per edge,
// keyed by id, so a redraw never pulls an element from under the pointer.
import { api } from "../api.js";
import { short } from "../dom.js";
import { isPill, loadNodeTypes, nodeTypeLabel } from "./node_types.js";

const NODE_W = 200;
const NODE_H = 64;
export const NODE_STATUS = { pending: "待执行", running: "执行中", completed: "已完成", failed: "失败", skipped: "已跳过" };
const SVG_NS = "http://www.w3.org/2000/svg";

// fetchCanvas reads the workflow's canvas (at a cursor for time travel),
// once the node types are known (without them a node shows its type).
export function fetchCanvas(id, at) {
  const types = loadNodeTypes().catch(() => null);
  return api("/api/v1/workflows/" + encodeURIComponent(id) + "/canvas" + (at ? "?at=" + at : "")).then(async (cv) => {
    await types;
    return normalizeCanvas(cv);
  });
}

// normalizeCanvas gives a canvas of the API (a read's, or a conflict's)
// the lists it may leave out, empty, and returns it.
export function normalizeCanvas(cv) {
  cv.nodes = cv.nodes || [];
  cv.edges = cv.edges || [];
  cv.participants = cv.participants || [];
  return cv;
}

// svgEl creates an SVG element with attributes and children (text as
// textContent, never markup).
function svgEl(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v != null && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// edgePath is an edge's curve from the right of its source to the left of
// its target.
export function edgePath(a, b) {
  const x1 = a.x + NODE_W, y1 = a.y + NODE_H / 2, x2 = b.x, y2 = b.y + NODE_H / 2;
  const dx = Math.max(40, Math.abs(x2 - x1) / 2);
  return "M" + x1 + "," + y1 + " C" + (x1 + dx) + "," + y1 + " " + (x2 - dx) + "," + y2 + " " + x2 + "," + y2;
}

// freeSpot finds a place on the grid the planner uses where no node is.
export function freeSpot(c) {
  for (let row = 0; row < 50; row++) {
    for (let col = 0; col < 8; col++) {
      const x = 40 + 260 * col, y = 40 + 120 * row;
      if (!c.nodes.some((n) => Math.abs(n.position.x - x) < NODE_W + 20 && Math.abs(n.position.y - y) < NODE_H + 20)) return { x, y };
    }
  }
  return { x: 40, y: 40 + 120 * c.nodes.length };
}

// createCanvas makes the page's <svg> (marked with the tab's client id)
// and its draw(canvas, view) function; view says what is selected, the
// connect mode's source, whether the canvas is read-only and how a node id
// reads.
export function createCanvas(clientId) {
  const edgeLayer = svgEl("g", { class: "wf-edges" });
  const nodeLayer = svgEl("g", { class: "wf-nodes" });
  const svg = svgEl("svg", { id: "wf-canvas", class: "wf-canvas", "data-client": clientId },
    svgEl("defs", {}, svgEl("marker", { id: "wf-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
      svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "wf-arrowhead" }))),
    edgeLayer, nodeLayer);
  const nodeEls = new Map(); // node id → its <g>
  const edgeEls = new Map(); // "from\0to" → its <g>

  const drawEdges = (cv, pos, view) => {
    const seen = new Set();
    cv.edges.filter((e) => pos[e.from] && pos[e.to]).forEach((e, i) => {
      const key = e.from + "\u0000" + e.to;
      seen.add(key);
      let g = edgeEls.get(key);
      if (!g) {
        const attrs = { "data-from": e.from, "data-to": e.to };
        g = svgEl("g", { class: "wf-edge-group" },
          svgEl("path", Object.assign({ class: "wf-edge", "marker-end": "url(#wf-arrow)" }, attrs)),
          svgEl("path", Object.assign({ class: "wf-edge-hit" }, attrs), svgEl("title", {})));
        edgeEls.set(key, g);
      }
      const d = edgePath(pos[e.from], pos[e.to]);
      for (const path of g.querySelectorAll("path")) if (path.getAttribute("d") !== d) path.setAttribute("d", d);
      g.querySelector("title").textContent = view.titleOf(e.from) + " → " + view.titleOf(e.to);
      const sel = view.selected && view.selected.edge;
      g.classList.toggle("selected", !!(sel && sel.from === e.from && sel.to === e.to));
      if (edgeLayer.children[i] !== g) edgeLayer.insertBefore(g, edgeLayer.children[i] || null);
    });
    for (const [key, g] of edgeEls) if (!seen.has(key)) { g.remove(); edgeEls.delete(key); }
  };

  const drawNodes = (cv, pos, view) => {
    const seen = new Set();
    cv.nodes.forEach((n, i) => {
      seen.add(n.id);
      let g = nodeEls.get(n.id);
      if (!g) {
        g = svgEl("g", { "data-node": n.id, tabindex: 0 }, svgEl("title", {}), svgEl("rect", { class: "wf-box", width: NODE_W, height: NODE_H }),
          svgEl("text", { class: "wf-node-title", x: 12, y: 24 }), svgEl("text", { class: "wf-node-sub", x: 12, y: 44 }),
          svgEl("text", { class: "wf-node-status", x: NODE_W - 10, y: 58, "text-anchor": "end" }));
        nodeEls.set(n.id, g);
      }
      const p = pos[n.id];
      const st = n.status || "pending";
      const sub = [nodeTypeLabel(n.type), n.assignee_id, n.due].filter(Boolean).join(" · ");
      const sel = (view.selected && view.selected.node === n.id) || view.connectFrom === n.id;
      const set = (el, k, v) => { if (el.getAttribute(k) !== String(v)) el.setAttribute(k, String(v)); };
      set(g, "class", "wf-node s-" + st + (sel ? " selected" : "") + " t-" + n.type);
      set(g, "data-status", st);
      set(g, "data-title", n.title || "");
      set(g, "data-x", p.x);
      set(g, "data-y", p.y);
      set(g, "transform", "translate(" + p.x + "," + p.y + ")");
      set(g.querySelector("rect"), "rx", isPill(n.type) ? 24 : 8);
      const [title, , t1, t2, t3] = g.children;
      title.textContent = (n.title || "") + (n.description ? "\n" + n.description : "") + "\n" + (NODE_STATUS[st] || st);
      t1.textContent = short(n.title, 13);
      t2.textContent = short(sub, 26);
      t3.textContent = (NODE_STATUS[st] || st) + (n.attempt > 1 ? " ×" + n.attempt : "");
      if (nodeLayer.children[i] !== g) nodeLayer.insertBefore(g, nodeLayer.children[i] || null);
    });
    for (const [key, g] of nodeEls) if (!seen.has(key)) { g.remove(); nodeEls.delete(key); }
  };

  const draw = (cv, view) => {
    const pos = {};
    let w = 600, hgt = 300;
    for (const n of cv.nodes) {
      const p = n.position || { x: 40, y: 40 };
      pos[n.id] = p;
      w = Math.max(w, p.x + NODE_W + 60);
      hgt = Math.max(hgt, p.y + NODE_H + 60);
    }
    svg.setAttribute("width", w);
    svg.setAttribute("height", hgt);
    svg.setAttribute("viewBox", "0 0 " + w + " " + hgt);
    svg.setAttribute("data-readonly", String(view.readOnly));
    svg.setAttribute("data-status", cv.status);
    svg.setAttribute("data-version", cv.version);
    drawEdges(cv, pos, view);
    drawNodes(cv, pos, view);
  };
  return { svg, draw };
}
