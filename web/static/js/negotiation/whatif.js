// The replay's "what if…": a fork of the negotiation after the event the
// replay slider is on, with one change of every kind the fork endpoint
// takes (POST /api/v1/negotiations/{demand_id}/forks): none (a replay),
// remove_agent, add_agent, replace_offer, replace_feedback, change_rule,
// change_demand. The fork's comparison opens once it is started; a
// refusal is shown with its code and what it means.
import { api, describe, postJSON } from "../api.js";
import { eventLine } from "../catalog.js";
import { fill, h, label } from "../dom.js";
import { nameOf, RULES, rootChannel } from "./view.js";

// CHANGES are the kinds of change, in the form's order, with what each asks for.
const CHANGES = [
  ["none", "不做改变（重放）", []],
  ["remove_agent", "去掉一位 Agent", ["agent"]],
  ["add_agent", "加入一位 Agent", ["newAgent"]],
  ["replace_offer", "改写一位 Agent 的回应", ["agent", "offer"]],
  ["replace_feedback", "改写一位 Agent 对方案的反馈", ["agent", "feedback"]],
  ["change_rule", "改变协商规则", ["rules"]],
  ["change_demand", "改写需求（只能在提交时分叉）", ["demand"]],
];

// FORK_HINTS explain the fork endpoint's refusals.
const FORK_HINTS = {
  TOWOW_FORK_001: "这个事件已在协商结束之后（或不属于这个协商），请把滑块移到更早的事件。",
  TOWOW_FORK_002: "这个改变在此处不适用：Agent 不存在或已不在协商中，要改写的回应或反馈此时并不欠着，或改写需求的分叉点不是需求的提交。",
};

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

const field = (text, input, attrs) => h("label", Object.assign({ class: "wf-field" }, attrs), h("span", {}, text), input);
const options = (values) => values.map((x) => h("option", { value: x }, label(x)));
const lines = (s) => s.split("\n").map((x) => x.trim()).filter(Boolean);

// whatIfForm is the form; current() returns the event the slider is on.
// It returns its element and update, which follows the slider.
export function whatIfForm(v, current) {
  const invited = invitedAgents(v);
  const type = h("select", { id: "whatif-type" }, CHANGES.map(([k, text]) => h("option", { value: k }, text)));
  const agent = h("select", { id: "whatif-agent" }, invited.map((a) => h("option", { value: a.id }, a.name + (a.inPlan ? "（在最终方案中）" : ""))));
  const newAgent = h("select", { id: "whatif-new-agent" }, h("option", { value: "" }, "加载中……"));
  const decision = h("select", { id: "whatif-offer-decision" }, options(["participate", "conditional", "decline"]));
  const contribution = h("input", { id: "whatif-offer-contribution", maxlength: 2000, placeholder: "能提供什么" });
  const conditions = h("textarea", { id: "whatif-offer-conditions", rows: 2, placeholder: "每行一个条件" });
  const declineReason = h("input", { id: "whatif-offer-reason", maxlength: 2000, placeholder: "为什么拒绝" });
  const feedbackType = h("select", { id: "whatif-feedback-type" }, options(["accept", "negotiate", "withdraw"]));
  const reasoning = h("input", { id: "whatif-feedback-reasoning", maxlength: 2000, placeholder: "理由" });
  const adjustment = h("input", { id: "whatif-feedback-adjustment", maxlength: 2000, placeholder: "希望方案怎么改" });
  const rules = Object.fromEntries(RULES.map(([k]) => [k, h("input", { id: "whatif-rule-" + k.replace(/_/g, "-"), type: "number", min: 0, step: 1, placeholder: "不变" })]));
  const demand = h("textarea", { id: "whatif-demand", maxlength: 10000, rows: 3 }, v.raw_input || "");

  const parts = {
    agent: field("哪位 Agent", agent),
    newAgent: field("加入哪位 Agent", newAgent),
    offer: h("div", { class: "whatif-group" }, field("回应", decision), field("贡献", contribution, { "data-for": "participate conditional" }),
      field("条件", conditions, { "data-for": "conditional" }), field("拒绝理由", declineReason, { "data-for": "decline" })),
    feedback: h("div", { class: "whatif-group" }, field("反馈", feedbackType), field("理由", reasoning),
      field("调整请求", adjustment, { "data-for": "negotiate" })),
    rules: h("div", { class: "whatif-group whatif-rules" }, h("p", { class: "small muted" }, "只填要改的规则，其余不变。"),
      RULES.map(([k, name, unit]) => field(name + "（" + unit + "）", rules[k]))),
    demand: field("新的需求", demand),
  };
  let directory = null; // the agents one may add, once listed
  const fit = () => {
    const wants = CHANGES.find(([k]) => k === type.value)[2];
    for (const [k, el] of Object.entries(parts)) el.hidden = !wants.includes(k);
    for (const el of parts.offer.querySelectorAll("[data-for]")) el.hidden = !el.dataset.for.split(" ").includes(decision.value);
    for (const el of parts.feedback.querySelectorAll("[data-for]")) el.hidden = !el.dataset.for.split(" ").includes(feedbackType.value);
    if (wants.includes("newAgent") && !directory) {
      directory = api("/api/v1/agents?limit=500").then((out) => {
        const taken = new Set(invited.map((a) => a.id));
        const free = out.agents.filter((a) => a.active && !taken.has(a.agent_id));
        fill(newAgent, free.length ? free.map((a) => h("option", { value: a.agent_id }, a.profile.user_name + (a.profile.location ? "（" + a.profile.location + "）" : "")))
          : h("option", { value: "" }, "没有可加入的 Agent"));
      }).catch((e) => { directory = null; fill(newAgent, h("option", { value: "" }, describe(e))); });
    }
  };
  for (const el of [type, decision, feedbackType]) el.addEventListener("change", fit);

  // change is the form's change as the endpoint takes it.
  const change = () => {
    const c = { type: type.value };
    if (["remove_agent", "replace_offer", "replace_feedback"].includes(c.type)) c.agent_id = agent.value;
    if (c.type === "add_agent") c.agent_id = newAgent.value;
    if (c.type === "replace_offer") {
      c.offer = { decision: decision.value };
      if (decision.value !== "decline") c.offer.contribution = contribution.value.trim();
      if (decision.value === "conditional") c.offer.conditions = lines(conditions.value);
      if (decision.value === "decline") c.offer.decline_reason = declineReason.value.trim();
    }
    if (c.type === "replace_feedback") {
      c.feedback = { feedback_type: feedbackType.value, reasoning: reasoning.value.trim() };
      if (feedbackType.value === "negotiate") c.feedback.adjustment_request = adjustment.value.trim();
    }
    if (c.type === "change_rule") {
      c.rules = {};
      for (const [k, el] of Object.entries(rules)) if (el.value.trim() !== "") c.rules[k] = Number(el.value);
    }
    if (c.type === "change_demand") c.text = demand.value.trim();
    return c;
  };

  const at = h("p", { class: "small", id: "whatif-at" });
  const err = h("div", { class: "error", id: "whatif-error", role: "alert" });
  const submit = h("button", { type: "submit", id: "whatif-submit" }, "从这里分叉");
  const form = h("form", { id: "whatif-form", class: "whatif", hidden: true, onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = "";
    submit.disabled = true;
    try {
      const out = await postJSON("/api/v1/negotiations/" + encodeURIComponent(v.demand_id) + "/forks", { at: Number(form.dataset.at), change: change() });
      location.hash = "#/fork/" + encodeURIComponent(out.demand_id);
    } catch (ex) {
      fill(err, describe(ex), ex.code && FORK_HINTS[ex.code] ? h("div", { class: "small" }, FORK_HINTS[ex.code]) : null);
    } finally {
      submit.disabled = false;
    }
  } },
  h("h3", {}, "假设……"), at,
  h("p", { class: "small muted" }, "分叉复制到这个事件为止的历史，施加一个改变后继续协商，成为一个新的协商；没受改变影响的 LLM 调用复用原协商的回答。只能在协商结束前的事件分叉。"),
  field("改变", type), Object.values(parts),
  h("div", { class: "row" }, submit), err);
  fit();
  const update = () => {
    const ev = current();
    form.dataset.at = ev.cursor;
    at.textContent = "从这个事件之后分叉：" + eventLine(ev);
    err.textContent = "";
  };
  const open = h("button", { type: "button", class: "ghost", id: "whatif-open", onclick: () => { update(); form.hidden = !form.hidden; } }, "假设……");
  update();
  return { el: h("div", { class: "whatif-wrap" }, open, form), update };
}
