// The comparison of two negotiations (an original and its fork, or any
// two): the plan's diff above, each branch below.
import { agentName, knownName, learnNames, lookUpNames, looksLikeAgentId } from "./agent_names.js";
import { ApiError, api, describe, showBanner } from "./api.js";
import { badge, fill, h, label } from "./dom.js";
import { qualityTable } from "./quality.js";

// comparePage shows two negotiations side by side, from path (a
// compare endpoint): the plan's diff above, each branch below; it refreshes
// every 2 s until both have ended.
export function comparePage(app, path, titles) {
  const box = h("div", { id: "compare", "data-final": "false" }, h("p", { class: "card muted" }, "加载中……"));
  app.append(box);
  let timer = 0, stopped = false;
  const load = async () => {
    try {
      const c = await api(path);
      await lookUpNames(agentIds(c)); // every agent by its name, the diff's dependencies too
      if (stopped) return;
      const final = [c.left, c.right].every(branchFinal);
      renderCompare(box, c, titles, final);
      showBanner("");
      if (!final) timer = setTimeout(load, 2000);
    } catch (e) {
      if (stopped) return;
      if (e instanceof ApiError) fill(box, h("p", { class: "error card" }, describe(e)));
      else { showBanner(describe(e) + "（2 秒后重试）", "info"); timer = setTimeout(load, 2000); } // the server is restarting
    }
  };
  load();
  return () => { stopped = true; clearTimeout(timer); };
}

// branchFinal: a side of a comparison has ended and its scores are final.
const branchFinal = (b) => b.quality.final && b.status !== "processing";

// agentIds are the agents a comparison names: its participants, the
// plans' and the diff's assignees and the dependencies that are agent ids
// (a dependency may also be a role); the names the answer gives are
// remembered.
function agentIds(c) {
  const ids = [];
  const plans = [c.left, c.right].map((b) => (b.plan && b.plan.assignments) || []);
  for (const a of [...plans.flat(), ...c.plan_diff.added, ...c.plan_diff.removed]) {
    if (a.display_name) learnNames({ [a.agent_id]: a.display_name });
    ids.push(a.agent_id, ...(a.dependencies || []).filter(looksLikeAgentId));
  }
  for (const x of c.plan_diff.changed) {
    ids.push(x.agent_id);
    for (const side of [x.left, x.right]) ids.push(...((side && side.dependencies) || []).filter(looksLikeAgentId));
  }
  return ids.concat(c.left.participants, c.right.participants).filter(Boolean);
}

// renderCompare fills the compare page with a comparison.
function renderCompare(box, c, titles, final) {
  // who names an agent (a value that is no agent id, such as a role, as it is).
  const who = (id) => knownName(id) || (looksLikeAgentId(id) ? agentName(id) : id);
  const runningText = titles[1] === "分叉" ? "分叉进行中" : "协商进行中";
  box.dataset.final = String(final);
  fill(box,
    h("section", { class: "card" },
      h("div", { class: "row" }, h("h1", { style: "margin:0" }, titles[0] + " 与 " + titles[1]),
        final ? null : h("span", { id: "compare-running" }, badge("processing", runningText))),
      h("p", { class: "small muted" }, final ? "两边都已结束。" : runningText + "，每 2 秒刷新一次，直到两边都结束。")),
    diffCard(c, titles, who),
    h("div", { class: "compare-grid" },
      branchCard(c.left, titles[0], "left", c.plan_diff, who),
      branchCard(c.right, titles[1], "right", c.plan_diff, who)));
}

// DIFF_FIELDS name the terms of an assignment a plan diff reports.
const DIFF_FIELDS = { role: "角色", need: "需求", responsibility: "职责", dependencies: "依赖", conditions_accepted: "接受条件" };

// diffCard sums up what the plan changed from left to right, with the
// outcome, rounds and LLM cost of both.
function diffCard(c, titles, who) {
  const d = c.plan_diff;
  const term = (a, f) => (Array.isArray(a[f]) ? a[f].map(f === "dependencies" ? who : String).join("、")
    : typeof a[f] === "boolean" ? (a[f] ? "是" : "否") : a[f]) || "—";
  const section = (kind, title, items, item) => items.length ? h("div", { class: "diff diff-" + kind, "data-kind": kind },
    h("h3", {}, title + "（" + items.length + "）"), h("ul", {}, items.map(item))) : null;
  const assignment = (a) => h("li", { "data-agent": a.agent_id }, h("b", {}, who(a.agent_id)), " — " + a.role + (a.responsibility ? "：" + a.responsibility : ""));
  const arrow = (f) => f(c.left) + " → " + f(c.right);
  return h("section", { class: "card", id: "plan-diff", "data-same": String(c.same_plan) },
    h("h2", {}, "方案差异 ", h("span", { class: "muted small" }, "从" + titles[0] + "到" + titles[1])),
    h("p", { class: "small" }, "结果 " + arrow((b) => label(b.status)) + " · 轮次 " + arrow((b) => b.rounds || "—") +
      " · 参与者 " + arrow((b) => b.participants.length) + " · LLM 调用 " + arrow((b) => b.llm.calls) + " · 复用 " + arrow((b) => b.llm.reused)),
    c.same_plan ? h("p", { class: "same" }, "两边方案相同：同样的 Agent、同样的分工，缺口也相同。") : [
      section("added", "新增", d.added, assignment),
      section("removed", "移除", d.removed, assignment),
      section("changed", "变更", d.changed, (x) => h("li", { "data-agent": x.agent_id }, h("b", {}, who(x.agent_id)), "：" + x.fields.map((f) => DIFF_FIELDS[f] || f).join("、"),
        h("ul", { class: "small muted" }, x.fields.map((f) => h("li", {}, (DIFF_FIELDS[f] || f) + "：" + term(x.left, f) + " → " + term(x.right, f)))))),
      section("gaps-closed", "补上的缺口", d.gaps_closed, (g) => h("li", {}, g)),
      section("gaps-opened", "新出现的缺口", d.gaps_opened, (g) => h("li", {}, g)),
    ]);
}

// branchCard is one side of a comparison: the demand, outcome, rounds,
// participants, plan (what the diff touches marked), LLM cost and quality.
function branchCard(b, title, side, d, who) {
  const only = new Set((side === "left" ? d.removed : d.added).map((a) => a.agent_id));
  const changed = new Set(d.changed.map((x) => x.agent_id));
  const mark = (id) => only.has(id) ? (side === "left" ? "diff-removed" : "diff-added") : changed.has(id) ? "diff-changed" : null;
  const final = branchFinal(b);
  const plan = b.plan || { assignments: [] };
  const stat = (name, value, attrs) => h("span", Object.assign({ class: "stat" }, attrs), h("b", {}, value), name);
  return h("section", { class: "card branch", "data-side": side, "data-demand": b.demand_id, "data-status": b.status, "data-final": String(final) },
    h("div", { class: "row" }, h("h2", { style: "margin:0" }, title), badge(b.status), final ? null : badge("processing", "进行中"),
      h("span", { class: "wf-grow" }), h("a", { class: "small open-negotiation", href: "#/n/" + encodeURIComponent(b.demand_id) }, "打开协商")),
    h("p", {}, b.raw_input),
    h("p", { class: "small" }, "轮次 ", h("b", { class: "rounds" }, b.rounds || "—"), " · 参与者 ", b.participants.length),
    h("p", { class: "participants" }, "参与者：", b.participants.length ? b.participants.map((id, i) =>
      [i ? "、" : "", h("span", { "data-agent": id, class: mark(id) }, who(id))]) : h("span", { class: "muted" }, "无")),
    h("h3", {}, "方案分工"),
    plan.assignments.length ? h("div", { class: "tablewrap" }, h("table", { class: "assignments" },
      h("thead", {}, h("tr", {}, h("th", {}, "角色"), h("th", {}, "Agent"), h("th", {}, "职责"))),
      h("tbody", {}, plan.assignments.map((a) => h("tr", { "data-agent": a.agent_id, class: mark(a.agent_id) },
        h("td", {}, a.role), h("td", {}, h("a", { href: "#/agents/" + a.agent_id }, who(a.agent_id))),
        h("td", { class: "small" }, a.responsibility)))))) : h("p", { class: "muted" }, "还没有方案"),
    (plan.gaps || []).length ? h("p", { class: "small" }, "缺口：" + plan.gaps.join("、")) : null,
    h("h3", {}, "LLM 成本（整棵协商树）"),
    h("div", { class: "llm" },
      stat("次调用", b.llm.calls, { class: "stat llm-calls", "data-calls": b.llm.calls }),
      stat("次复用", b.llm.reused, { class: "stat llm-reused", "data-reused": b.llm.reused }),
      stat("tokens（输入+输出）", b.llm.input_tokens + "+" + b.llm.output_tokens),
      stat("次回退", b.llm.fallbacks)),
    h("h3", {}, "质量评分"),
    qualityTable([final ? "整棵协商树" : "整棵协商树（目前为止）"], [b.quality.tree]));
}
