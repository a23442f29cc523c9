// The workflow page's history slider: the stream's events (those before
// the page opened read from the audit query), and the canvas as it was at
// the one the slider is on, read-only (GET …/canvas?at=).
import { api, describe } from "../api.js";
import { clock } from "../dom.js";
import { fetchCanvas } from "./canvas.js";
import { eventText } from "./describe.js";

export function installHistory(wf) {
  const { ui, id, history } = wf;
  wf.updateSlider = () => {
    const atEnd = wf.viewAt === 0;
    ui.slider.max = Math.max(0, history.length - 1);
    if (atEnd) ui.slider.value = ui.slider.max;
    ui.slider.dataset.cursors = history.length;
    if (atEnd) ui.histPos.textContent = history.length ? "现在 · 共 " + history.length + " 个事件" : "";
  };

  // loadEarlier reads the stream's events up to the canvas's cursor (the
  // audit query of its negotiation: a person may list only their own).
  wf.loadEarlier = (until, demandId) => {
    const q = new URLSearchParams({ demand_id: demandId, stream_id: "workflow-" + id, limit: 1000, until });
    api("/api/v1/events?" + q).then((out) => {
      (out.events || []).forEach(wf.sawEvent);
      const earlier = (out.events || []).filter((e) => e.cursor <= until && !history.some((x) => x.cursor === e.cursor))
        .map((e) => ({ cursor: e.cursor, event_type: e.event_type, timestamp: e.timestamp, summary: e.summary, payload: e.payload, metadata: e.metadata }));
      history.unshift(...earlier);
      history.sort((a, b) => a.cursor - b.cursor);
      wf.updateSlider();
      wf.replayActivity(earlier);
    }).catch(() => {});
  };

  let seq = 0;
  const show = async () => {
    const i = Number(ui.slider.value);
    const mine = ++seq;
    if (!history.length || i >= history.length - 1) { backToNow(); return; }
    const e = history[i];
    wf.viewAt = e.cursor;
    ui.histNow.hidden = false;
    ui.histPos.textContent = "第 " + (i + 1) + " / " + history.length + " 个事件 · " + clock(e.timestamp) + " · " + eventText(wf, e);
    ui.histPos.dataset.cursor = e.cursor;
    try {
      const cv = await fetchCanvas(id, e.cursor);
      if (mine !== seq || wf.viewAt !== e.cursor) return;
      wf.viewCanvas = cv;
      wf.closePanel();
      wf.scheduleRender();
    } catch (err) {
      if (mine === seq) ui.error.textContent = describe(err);
    }
  };
  const backToNow = () => {
    seq++;
    wf.viewAt = 0;
    wf.viewCanvas = null;
    ui.histNow.hidden = true;
    delete ui.histPos.dataset.cursor;
    wf.updateSlider();
    wf.scheduleRender();
  };
  ui.slider.addEventListener("input", show);
  ui.histNow.addEventListener("click", backToNow);
}
