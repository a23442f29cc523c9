// The negotiation page's replay: a slider over the root channel's events
// showing the channel as the API folds it at each (time travel), and the
// "what if…" form that forks the negotiation there.
import { api, describe, postJSON } from "../api.js";
import { eventLine } from "../catalog.js";
import { badge, clock, fill, h } from "../dom.js";
import { nameOf, rootChannel } from "./view.js";

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

// invitedAgents lists the agents the negotiation tree invited (every
// channel's candidates, once each), those of the final plan first.
function invitedAgents(v) {
  const root = rootChannel(v);
  const plan = root && (root.merged_plan || (root.outcome && root.outcome.proposal));
  const inPlan = new Set(((plan && plan.assignments) || []).map((a) => a.agent_id));
  const seen = new Map();
  for (const ch of v.channels) {
    for (const c of ch.candidates) {
      if (!seen.has(c.agent_id)) seen.set(c.agent_id, { id: c.agent_id, name: c.display_name || nameOf(v)(c.agent_id), inPlan: inPlan.has(c.agent_id) });
    }
  }
  return [...seen.values()].sort((a, b) => Number(b.inPlan) - Number(a.inPlan));
}

// FORK_HINTS explain the fork endpoint's refusals.
const FORK_HINTS = {
  TOWOW_FORK_001: "这个事件已在协商结束之后（或不属于这个协商），请把滑块移到更早的事件。",
  TOWOW_FORK_002: "这个改变在此处不适用：Agent 不存在，或到这个事件时已不在协商中。",
};

// whatIfForm is the replay's "what if…": a fork of the negotiation after
// the event the slider is on (current() returns it) with one change; the
// fork's comparison opens once it is started. update follows the slider.
function whatIfForm(v, current) {
  const type = h("select", { id: "whatif-type" }, h("option", { value: "none" }, "不做改变（重放）"),
    h("option", { value: "remove_agent" }, "去掉一位 Agent"));
  const agent = h("select", { id: "whatif-agent" }, invitedAgents(v).map((a) =>
    h("option", { value: a.id }, a.name + (a.inPlan ? "（在最终方案中）" : ""))));
  const agentField = h("label", { class: "wf-field", hidden: true }, h("span", {}, "去掉哪位 Agent"), agent);
  type.addEventListener("change", () => { agentField.hidden = type.value !== "remove_agent"; });
  const at = h("p", { class: "small", id: "whatif-at" });
  const err = h("div", { class: "error", id: "whatif-error", role: "alert" });
  const submit = h("button", { type: "submit", id: "whatif-submit" }, "从这里分叉");
  const form = h("form", { id: "whatif-form", class: "whatif", hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    const change = { type: type.value };
    if (type.value === "remove_agent") change.agent_id = agent.value;
    err.textContent = "";
    submit.disabled = true;
    try {
      const out = await postJSON("/api/v1/negotiations/" + encodeURIComponent(v.demand_id) + "/forks", { at: Number(form.dataset.at), change });
      location.hash = "#/fork/" + encodeURIComponent(out.demand_id);
    } catch (ex) {
      fill(err, describe(ex), ex.code && FORK_HINTS[ex.code] ? h("div", { class: "small" }, FORK_HINTS[ex.code]) : null);
    } finally {
      submit.disabled = false;
    }
  } },
  h("h3", {}, "假设……"), at,
  h("p", { class: "small muted" }, "分叉复制到这个事件为止的历史，施加一个改变后继续协商，成为一个新的协商；没受改变影响的 LLM 调用复用原协商的回答。只能在协商结束前的事件分叉。"),
  h("label", { class: "wf-field" }, h("span", {}, "改变"), type), agentField,
  h("div", { class: "row" }, submit), err);
  const update = () => {
    const ev = current();
    form.dataset.at = ev.cursor;
    at.textContent = "从这个事件之后分叉：" + eventLine(ev) + "（游标 " + ev.cursor + "）";
    err.textContent = "";
  };
  const open = h("button", { type: "button", class: "ghost", id: "whatif-open", onclick: () => { update(); form.hidden = !form.hidden; } }, "假设……");
  update();
  return { el: h("div", { class: "whatif-wrap" }, open, form), update };
}
