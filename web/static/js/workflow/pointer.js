// The workflow page's pointer: drag a node (its position is sent when
// dropped), click a node (edit it, or in connect mode pick an edge's ends),
// click an edge (delete it), Enter or Space on a focused node.
import { edgePath } from "./canvas.js";

export function installPointer(wf) {
  const svg = wf.ui.canvas.svg;
  const toSvg = (ev) => {
    const m = svg.getScreenCTM();
    const pt = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m ? m.inverse() : new DOMMatrix());
    return { x: pt.x, y: pt.y };
  };
  svg.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const g = ev.target.closest && ev.target.closest("g.wf-node");
    if (!g || wf.readOnly()) return;
    const n = wf.nodeById(g.dataset.node);
    if (!n) return;
    wf.drag = { id: n.id, g, start: toSvg(ev), orig: { x: n.position.x, y: n.position.y }, moved: false, pointer: ev.pointerId };
    try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* synthetic pointer */ }
    ev.preventDefault();
  });
  svg.addEventListener("pointermove", (ev) => {
    const drag = wf.drag;
    if (!drag) return;
    const p = toSvg(ev);
    const dx = p.x - drag.start.x, dy = p.y - drag.start.y;
    if (!drag.moved && Math.hypot(dx, dy) < 4) return;
    drag.moved = true;
    const x = Math.max(0, Math.round(drag.orig.x + dx)), y = Math.max(0, Math.round(drag.orig.y + dy));
    drag.to = { x, y };
    drag.g.setAttribute("transform", "translate(" + x + "," + y + ")");
    drag.g.classList.add("dragging");
    const posOf = (nid) => nid === drag.id ? drag.to : (wf.nodeById(nid) || {}).position;
    svg.querySelectorAll("path[data-from='" + CSS.escape(drag.id) + "'], path[data-to='" + CSS.escape(drag.id) + "']").forEach((path) => {
      const a = posOf(path.dataset.from), b = posOf(path.dataset.to);
      if (a && b) path.setAttribute("d", edgePath(a, b));
    });
  });
  const endDrag = (cancelled) => {
    const d = wf.drag;
    if (!d) return;
    wf.drag = null;
    try { svg.releasePointerCapture(d.pointer); } catch (e) { /* not captured */ }
    if (d.moved && d.to && !cancelled) {
      // Where the node was dropped stands until the canvas is read again.
      const n = wf.nodeById(d.id);
      if (n) n.position = d.to;
      wf.send([{ type: "node_moved", node_id: d.id, data: { position: d.to } }]);
    } else if (!d.moved && !cancelled) {
      nodeClicked(d.id);
    }
    if (wf.pendingRender || d.moved) { wf.pendingRender = false; wf.scheduleRender(); }
  };
  svg.addEventListener("pointerup", () => endDrag(false));
  svg.addEventListener("pointercancel", () => endDrag(true));
  svg.addEventListener("click", (ev) => {
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
