// Quality scores: a negotiation's (root channel and whole tree) and the
// demand tables' quality cells.
import { api } from "./api.js";
import { fill, h, pct } from "./dom.js";

// QUALITY_ROWS are the rows of a quality table: a score's name and how one
// Scores object (a root channel's or a whole tree's) reads.
const QUALITY_ROWS = [
  ["需求覆盖", (s) => pct(s.need_coverage) + "（" + s.places + " 个名额）"],
  ["多余分配", (s) => String(s.padding)],
  ["相关性", (s) => pct(s.relevance) + (s.irrelevant_assignees ? "（" + s.irrelevant_assignees + " 人不具备所需能力）" : "")],
  ["轮次", (s) => String(s.rounds)],
  ["最终接受率", (s) => pct(s.final_accept_rate)],
  ["稳定性", (s) => pct(s.stability)],
  ["模型未能回答", (s) => (s.no_answers ? pct(s.no_answers) + " 的回应（分身因模型故障没有回答，不算接受）" : "无")],
  ["福利（平均 / 纳什）", (s) => s.welfare_utilitarian + " / " + s.welfare_nash],
  ["LLM 调用", (s) => s.llm.calls + " 次，" + s.llm.input_tokens + "+" + s.llm.output_tokens + " tokens，回退 " + s.llm.fallbacks + "，复用 " + (s.llm.reused || 0)],
  ["达成用时", (s) => (s.time_to_agreement_ms ? (s.time_to_agreement_ms / 1000).toFixed(1) + " 秒" : "—")],
];

// qualityTable shows Scores objects side by side, one column each under
// its header.
export function qualityTable(headers, scores) {
  return h("div", { class: "tablewrap" }, h("table", { class: "quality-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), headers.map((t) => h("th", {}, t)))),
    h("tbody", {}, QUALITY_ROWS.map(([name, f]) => h("tr", {}, h("td", {}, name), scores.map((sc) => h("td", {}, f(sc))))))));
}

// qualityCard shows a negotiation's quality scores (the root channel and
// the whole tree), fetched when it ends.
export function qualityCard(q) {
  return h("section", { class: "card", id: "quality", "data-final": String(q.final) },
    h("h2", {}, "质量评分 ", h("span", { class: "muted small" }, q.final ? "" : "（进行中，目前为止）")),
    qualityTable(["主协商", "整棵协商树"], [q.root, q.tree]));
}

// qualityCells are the demand rows' quality cells, filled from the
// aggregate (one request for the whole table).
export function qualityCells(demands) {
  const cells = {};
  demands.forEach((d) => { cells[d.demand_id] = h("td", { class: "small quality", "data-label": "质量" }, ""); });
  api("/api/v1/quality?limit=" + Math.min(200, Math.max(1, demands.length))).then((out) => {
    (out.reports || []).forEach((r) => {
      const c = cells[r.demand_id];
      if (c && r.status !== "rejected" && r.tree.assignees) {
        fill(c, "覆盖 " + pct(r.tree.need_coverage) + " · 多余 " + r.tree.padding + " · 相关 " + pct(r.tree.relevance) +
          (r.tree.irrelevant_assignees ? " · 不对口 " + r.tree.irrelevant_assignees + " 人" : "") +
          (r.tree.no_answers ? " · 未答 " + pct(r.tree.no_answers) : ""));
      }
    });
  }).catch(() => {});
  return cells;
}
