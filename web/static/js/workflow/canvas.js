// The workflow's canvas: read from the API, and drawn as hand-written SVG
// over the nodes' server-side positions, one <g> per node and per edge,
// keyed by id, so a redraw never pulls an element from under the pointer.
// How a node looks is node_shape.js's; how the canvas is panned and
// zoomed, viewport.js's.
import { api } from "../api.js";
import { learnNames } from "../agent_names.js";
import { isPill, loadNodeTypes } from "./node_types.js";
import { fillNode, layoutNode, NODE_PARTS, NODE_W } from "./node_shape.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARGIN = 40; // around the nodes, inside the drawing

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
// the lists it may leave out, empty, and returns it; its participants'
// names are remembered for every page.
export function normalizeCanvas(cv) {
  cv.nodes = cv.nodes || [];
  cv.edges = cv.edges || [];
  cv.participants = cv.participants || [];
  cv.names = cv.names || {};
  learnNames(cv.names);
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
// its target (each a position with its node's height h).
export function edgePath(a, b) {
  const x1 = a.x + NODE_W, y1 = a.y + a.h / 2, x2 = b.x, y2 = b.y + b.h / 2;
  const dx = Math.max(40, Math.abs(x2 - x1) / 2);
  return "M" + x1 + "," + y1 + " C" + (x1 + dx) + "," + y1 + " " + (x2 - dx) + "," + y2 + " " + x2 + "," + y2;
}

// freeSpot finds a place on the grid the planner uses where no node is.
export function freeSpot(c) {
  for (let row = 0; row < 50; row++) {
    for (let col = 0; col < 8; col++) {
      const x = 40 + 260 * col, y = 40 + 120 * row;
      if (!c.nodes.some((n) => Math.abs(n.position.x - x) < NODE_W + 20 && Math.abs(n.position.y - y) < 100)) return { x, y };
    }
  }
  return { x: 40, y: 40 + 120 * c.nodes.length };
}

// newNodeEl is a node's <g>, its parts in node_shape.js's NODE_PARTS order.
const newNodeEl = (id) => svgEl("g", { "data-node": id, tabindex: 0, role: "button" }, svgEl("title", {}),
  svgEl("rect", { class: "wf-box", width: NODE_W }),
  svgEl("text", { class: "wf-node-title" }), svgEl("text", { class: "wf-node-sub", x: 12 }),
  svgEl("text", { class: "wf-node-status", x: NODE_W - 12, "text-anchor": "end" }));
// simMark is the mark of a node a twin answered in its person's place.
const simMark = () => svgEl("g", { class: "wf-sim", transform: "translate(" + (NODE_W - 52) + ",-10)" },
  svgEl("rect", { width: 44, height: 20, rx: 10 }), svgEl("text", { x: 22, y: 15, "text-anchor": "middle" }, "模拟"));

// createCanvas makes the page's <svg> (marked with the tab's client id)
// and its draw(canvas, view) function; view says what is selected, the
// connect mode's source, whether the canvas is read-only, how a node id
// and an agent id read (titleOf, nameOf) and who owns it. heightOf(id) is
// a node's drawn height; size the drawing's.
export function createCanvas(clientId) {
  const edgeLayer = svgEl("g", { class: "wf-edges" });
  const nodeLayer = svgEl("g", { class: "wf-nodes" });
  const svg = svgEl("svg", { id: "wf-canvas", class: "wf-canvas", "data-client": clientId, role: "group", "aria-label": "执行计划画布" },
    svgEl("defs", {}, svgEl("marker", { id: "wf-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 8, markerHeight: 8, orient: "auto-start-reverse" },
      svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "wf-arrowhead" }))),
    edgeLayer, nodeLayer);
  const nodeEls = new Map(); // node id → its <g>
  const edgeEls = new Map(); // "from\0to" → its <g>
  const heights = new Map(); // node id → its drawn height
  const size = { w: 600, h: 300 };

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

  const drawNodes = (cv, layouts, view) => {
    cv.nodes.forEach((n, i) => {
      let g = nodeEls.get(n.id);
      if (!g) { g = newNodeEl(n.id); nodeEls.set(n.id, g); }
      const p = n.position || { x: 40, y: 40 };
      const l = layouts.get(n.id);
      const sel = (view.selected && view.selected.node === n.id) || view.connectFrom === n.id;
      const set = (k, v) => { if (g.getAttribute(k) !== String(v)) g.setAttribute(k, String(v)); };
      set("class", "wf-node s-" + l.st + (sel ? " selected" : "") + " t-" + n.type);
      set("data-status", l.st);
      set("data-title", n.title || "");
      set("data-simulated", String(l.simulated));
      set("data-x", p.x);
      set("data-y", p.y);
      set("aria-label", (n.title || "") + "，" + l.status);
      set("transform", "translate(" + p.x + "," + p.y + ")");
      const rect = g.children[NODE_PARTS.indexOf("rect")];
      if (rect.getAttribute("rx") !== String(isPill(n.type) ? 24 : 8)) rect.setAttribute("rx", isPill(n.type) ? 24 : 8);
      fillNode(g, l, simMark);
      if (nodeLayer.children[i] !== g) nodeLayer.insertBefore(g, nodeLayer.children[i] || null);
    });
    for (const [key, g] of nodeEls) if (!layouts.has(key)) { g.remove(); nodeEls.delete(key); }
  };

  const draw = (cv, view) => {
    const pos = {}, layouts = new Map();
    let w = 600, hgt = 300;
    heights.clear();
    for (const n of cv.nodes) {
      const p = n.position || { x: 40, y: 40 };
      const l = layoutNode(n, view);
      layouts.set(n.id, l);
      heights.set(n.id, l.height);
      pos[n.id] = { x: p.x, y: p.y, h: l.height };
      w = Math.max(w, p.x + NODE_W + MARGIN);
      hgt = Math.max(hgt, p.y + l.height + MARGIN);
    }
    size.w = w;
    size.h = hgt;
    const vb = "0 0 " + w + " " + hgt;
    if (svg.getAttribute("viewBox") !== vb) svg.setAttribute("viewBox", vb);
    svg.setAttribute("data-readonly", String(view.readOnly));
    svg.setAttribute("data-status", cv.status);
    svg.setAttribute("data-version", cv.version);
    drawEdges(cv, pos, view);
    drawNodes(cv, layouts, view);
  };
  return { svg, draw, size, heightOf: (id) => heights.get(id) || 60 };
}
