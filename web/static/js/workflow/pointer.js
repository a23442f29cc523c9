// The workflow page's pointer: drag a node (its position is sent when
// dropped), drag the background (or, on a read-only canvas, anything) to
// pan, pinch with two fingers to zoom, click a node (edit it, or in
// connect mode pick an edge's ends), click an edge (delete it), Enter or
// Space on a focused node. A drag that moved is no click.
import { edgePath } from "./canvas.js";

const SLOP = 4; // px a pointer moves before a press becomes a drag

export function installPointer(wf) {
  const svg = wf.ui.canvas.svg;
  const pointers = new Map(); // pointer id → its last client position, while pressed on the canvas
  let pan = null; // a background drag: its last client position and whether it moved
  let pinch = null; // two fingers: their distance and midpoint when it started, and the zoom then
  let noClick = false; // the press that ends now panned, pinched or dragged: its click opens nothing
  const toSvg = (ev) => {
    const m = svg.getScreenCTM();
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m ? m.inverse() : new DOMMatrix());
    return { x: pt.x, y: pt.y };
  };
  // capture keeps a pointer's events on the canvas while it drags; a
  // press that does not move is not captured, so its click lands on what
  // was pressed (a node of a read-only canvas, an edge).
  const capture = (id) => { try { svg.setPointerCapture(id); } catch (e) { /* synthetic pointer */ } };
  const two = () => {
    const [a, b] = [...pointers.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  svg.addEventListener("pointerdown", (ev) => {
    if (ev.pointerType === "mouse" && ev.button !== 0) return;
    if (!pointers.size) noClick = false;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pointers.size === 2) { // a second finger: pinch; a node being dragged goes back
      for (const id of pointers.keys()) capture(id);
      if (wf.drag) endDrag(true);
      pan = null;
      pinch = Object.assign(two(), { zoom: wf.zoom() });
      noClick = true;
      ev.preventDefault();
      return;
    }
    if (pointers.size > 2) return;
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (g && !wf.readOnly()) {
      const n = wf.nodeById(g.dataset.node);
      if (!n) return;
      wf.drag = { id: n.id, g, start: toSvg(ev), orig: { x: n.position.x, y: n.position.y }, moved: false, pointer: ev.pointerId };
      capture(ev.pointerId);
      ev.preventDefault();
      return;
    }
    if (!(ev.target.closest && ev.target.closest("path.wf-edge-hit"))) pan = { x: ev.clientX, y: ev.clientY, moved: false };
  });

  svg.addEventListener("pointermove", (ev) => {
    if (!pointers.has(ev.pointerId)) return;
    pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (pinch && pointers.size >= 2) {
      const now = two();
      wf.panBy(now.x - pinch.x, now.y - pinch.y);
      wf.zoomAt(pinch.zoom * now.dist / pinch.dist, now.x, now.y);
      pinch.x = now.x;
      pinch.y = now.y;
      return;
    }
    if (wf.drag) { moveDrag(ev); return; }
    if (!pan) return;
    const dx = ev.clientX - pan.x, dy = ev.clientY - pan.y;
    if (!pan.moved && Math.hypot(dx, dy) < SLOP) return;
    if (!pan.moved) capture(ev.pointerId);
    pan.moved = noClick = true;
    wf.panBy(dx, dy);
    pan.x = ev.clientX;
    pan.y = ev.clientY;
  });

  const moveDrag = (ev) => {
    const drag = wf.drag;
    const p = toSvg(ev);
    const dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < SLOP) return;
    drag.moved = noClick = true;
    const x = Math.max(0, Math.round(drag.orig.x + dx)), y = Math.max(0, Math.round(drag.orig.y + dy));
    drag.to = { x, y };
    drag.g.setAttribute("transform", "translate(" + x + "," + y + ")");
    drag.g.classList.add("dragging");
    const posOf = (nid) => {
      const p = nid === drag.id ? drag.to : (wf.nodeById(nid) || {}).position;
      return p && { x: p.x, y: p.y, h: wf.ui.canvas.heightOf(nid) };
    };
    svg.querySelectorAll("path[data-from='" + CSS.escape(drag.id) + "'], path[data-to='" + CSS.escape(drag.id) + "']").forEach((path) => {
      const a = posOf(path.dataset.from), b = posOf(path.dataset.to);
      if (a && b) path.setAttribute("d", edgePath(a, b));
    });
  };
  const endDrag = (cancelled) => {
    const d = wf.drag;
    if (!d) return;
    wf.drag = null;
    if (d.moved && d.to && !cancelled) {
      // Where the node was dropped stands until the canvas is read again.
      const n = wf.nodeById(d.id);
      if (n) n.position = d.to;
      wf.send([{ type: "node_moved", node_id: d.id, data: { position: d.to } }]);
    } else if (!d.moved && !cancelled) {
      nodeClicked(d.id);
    }
    d.g.classList.remove("dragging");
    if (wf.pendingRender || d.moved || cancelled) { wf.pendingRender = false; wf.scheduleRender(); }
  };
  const lift = (ev, cancelled) => {
    if (!pointers.delete(ev.pointerId)) return;
    if (svg.hasPointerCapture(ev.pointerId)) svg.releasePointerCapture(ev.pointerId);
    if (pinch) { if (pointers.size < 2) pinch = null; return; }
    if (wf.drag && wf.drag.pointer === ev.pointerId) endDrag(cancelled);
    pan = null;
  };
  svg.addEventListener("pointerup", (ev) => lift(ev, false));
  svg.addEventListener("pointercancel", (ev) => lift(ev, true));

  svg.addEventListener("click", (ev) => {
    if (noClick) { noClick = false; return; }
    const e = ev.target.closest && ev.target.closest("path.wf-edge-hit, path.wf-edge");
    if (e) { wf.openEdge({ from: e.dataset.from, to: e.dataset.to }); return; }
    // A click on a node of a read-only canvas shows its details.
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (g && wf.readOnly() && wf.viewAt === 0) wf.openNode(g.dataset.node);
  });
  svg.addEventListener("keydown", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (g && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); nodeClicked(g.dataset.node); }
  });
  const nodeClicked = async (nid) => {
    if (!wf.connectMode) { wf.openNode(nid); return; }
    if (!wf.connectFrom) { wf.connectFrom = nid; wf.scheduleRender(); return; }
    if (wf.connectFrom === nid) { wf.connectFrom = null; wf.scheduleRender(); return; }
    const from = wf.connectFrom;
    wf.connectFrom = null;
    await wf.send([{ type: "edge_added", edge: { from, to: nid } }]);
    wf.setConnect(false);
  };
}
