// The canvas's view: the drawing at a zoom in a scrolling frame. It is
// panned by scrolling the frame (dragging its background, with a mouse or
// one finger: pointer.js) and zoomed by the wheel, by pinching and by the
// −/+ buttons, around the pointer (the buttons: around the frame's
// centre); 适应 fits the whole plan. Until a person zooms, the zoom fits
// the plan's width, but never below READABLE_ZOOM (the nodes' text at 12
// px or more): a wider plan is panned.
import { h } from "../dom.js";
import { READABLE_ZOOM } from "./node_shape.js";

const MIN_ZOOM = 0.3, MAX_ZOOM = 2.5;
const STEP = 1.25; // a button press

export function installViewport(wf) {
  const { ui } = wf;
  const frame = ui.svgWrap, svg = ui.canvas.svg, size = ui.canvas.size;
  let zoom = 1, chosen = false; // chosen: a person zoomed (the zoom no longer follows the frame's width)
  const clamp = (z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, z));
  const label = h("span", { id: "wf-zoom-level", class: "small", "aria-live": "polite" });

  const apply = () => {
    const w = Math.round(size.w * zoom), hgt = Math.round(size.h * zoom);
    if (svg.getAttribute("width") !== String(w)) svg.setAttribute("width", w);
    if (svg.getAttribute("height") !== String(hgt)) svg.setAttribute("height", hgt);
    svg.dataset.zoom = zoom.toFixed(3);
    label.textContent = Math.round(zoom * 100) + "%";
  };
  const auto = () => clamp(Math.min(1, Math.max(READABLE_ZOOM, (frame.clientWidth - 2) / size.w)));

  // zoomAt sets the zoom keeping the drawing's point under (x, y) (client
  // coordinates) where it is.
  wf.zoomAt = (z, x, y) => {
    const r = frame.getBoundingClientRect();
    const ox = x == null ? frame.clientWidth / 2 : x - r.left, oy = y == null ? frame.clientHeight / 2 : y - r.top;
    const cx = (frame.scrollLeft + ox) / zoom, cy = (frame.scrollTop + oy) / zoom;
    zoom = clamp(z);
    chosen = true;
    apply();
    frame.scrollLeft = cx * zoom - ox;
    frame.scrollTop = cy * zoom - oy;
  };
  wf.zoom = () => zoom;
  wf.panBy = (dx, dy) => { frame.scrollLeft -= dx; frame.scrollTop -= dy; };
  const fit = () => {
    wf.zoomAt(Math.min((frame.clientWidth - 2) / size.w, (frame.clientHeight - 2) / size.h));
    frame.scrollLeft = frame.scrollTop = 0;
  };

  // syncView follows a redraw (the drawing's size may have changed).
  wf.syncView = () => {
    if (!chosen) zoom = auto();
    apply();
  };
  new ResizeObserver(() => { if (!chosen) wf.syncView(); }).observe(frame);

  frame.addEventListener("wheel", (e) => {
    e.preventDefault();
    const dy = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
    wf.zoomAt(zoom * Math.exp(-dy * 0.0015), e.clientX, e.clientY);
  }, { passive: false });

  const button = (id, text, title, onclick) => h("button", { type: "button", id, class: "ghost small", title, "aria-label": title, onclick }, text);
  ui.zoomBar.append(
    button("wf-zoom-out", "−", "缩小", () => wf.zoomAt(zoom / STEP)),
    label,
    button("wf-zoom-in", "+", "放大", () => wf.zoomAt(zoom * STEP)),
    button("wf-zoom-fit", "适应", "显示整个执行计划", fit));
}
