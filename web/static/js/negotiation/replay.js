// The negotiation page's replay: a slider over the root channel's events
// showing the channel as the API folds it at each (time travel), and the
// "what if…" form (whatif.js) that forks the negotiation there.
import { api, describe } from "../api.js";
import { eventLine } from "../catalog.js";
import { badge, clock, fill, h } from "../dom.js";
import { nameOf, rootChannel } from "./view.js";
import { whatIfForm } from "./whatif.js";

// setupReplay puts a slider over the stored events (the stream's, up to
// the view v's cursor at least): moving it shows the root channel as it
// was at that event, folded by the API (time travel).
export function setupReplay(el, v, events) {
  const root = rootChannel(v);
  const idx = events.map((e, i) => ({ e, i })).filter((x) => x.e.stream_id === "channel-" + root.channel_id);
  if (!idx.length) return;
  const out = h("div", { id: "tt-state" });
  const pos = h("div", { class: "small muted", id: "tt-position" });
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: idx.length - 1, value: idx.length - 1, step: 1,
    "aria-label": "回放位置", "data-types": idx.map((x) => x.e.event_type).join(" ") });
  let seq = 0;
  const show = async () => {
    const mine = ++seq;
    const ev = idx[Number(slider.value)].e;
    pos.textContent = "第 " + (Number(slider.value) + 1) + " / " + idx.length + " 个频道事件 · " + clock(ev.timestamp) + " · " + eventLine(ev);
    try {
      const st = await api("/api/v1/channels/" + encodeURIComponent(root.channel_id) + "/state?at=" + ev.cursor);
      if (mine !== seq) return;
      const p = st.proposal;
      fill(out,
        h("p", {}, badge(st.status), " 第 " + st.round + " / " + st.max_rounds + " 轮 · 回应 " + Object.keys(st.offers || {}).length + " 份"),
        p ? h("div", {}, h("b", { id: "tt-version", "data-version": p.version }, "方案 v" + p.version), "：", p.summary,
          h("ul", {}, (p.assignments || []).map((a) => h("li", {}, a.role + " — " + (a.display_name || nameOf(v)(a.agent_id)))))) :
          h("p", { class: "muted", id: "tt-version", "data-version": 0 }, "此时还没有方案"));
    } catch (e) {
      if (mine === seq) fill(out, h("p", { class: "error" }, describe(e)));
    }
  };
  slider.addEventListener("input", show);
  const whatIf = whatIfForm(v, () => idx[Number(slider.value)].e);
  slider.addEventListener("input", whatIf.update);
  fill(el, h("h2", {}, "回放"), h("p", { class: "small muted" }, "拖动滑块，查看协商在任一事件时的状态（由 API 从事件重放得出）。"), slider, pos, out, whatIf.el);
  el.hidden = false;
  show();
}
