// The negotiation page's cards, drawn from the server's view of the tree
// (./view.js): the head, the channel tree (proposal, feedback, candidates,
// gaps and nested sub-negotiations), the outcome, a rejection with its
// clarification form, and the merged plan.
import { describe, postJSON } from "../api.js";
import { badge, fill, h, label } from "../dom.js";
import { changeText, channelOf, nameOf, rootChannel } from "./view.js";

// renderHead shows the demand, its status, a fork's origin, the
// understanding and the round (v is null before the first read).
export function renderHead(el, v) {
  const root = rootChannel(v);
  const failure = v && v.failure;
  const status = root ? root.status : (failure ? "failed" : "processing");
  fill(el,
    h("div", { class: "row" }, h("h1", { style: "margin:0" }, v && v.raw_input ? v.raw_input : "加载中……"),
      h("span", { id: "status" }, badge(status, root && root.completed ? label(root.status) : (failure ? "失败" : label(status))))),
    v && v.fork ? h("p", { class: "row fork-note" }, h("span", { class: "small" }, "假设分支：分叉自", h("a", { id: "fork-original", href: "#/n/" + encodeURIComponent(v.fork.forked_from) }, "原协商"),
      "，改变：" + changeText(v.fork.change, nameOf(v))),
    h("a", { class: "button", id: "fork-link", href: "#/fork/" + encodeURIComponent(v.demand_id) }, "与原协商对比")) : null,
    v && v.understanding ? h("p", { class: "muted" }, "理解：", v.understanding.surface_demand,
      v.understanding.capability_tags ? h("span", { class: "tags", style: "display:inline-flex;margin-left:.5rem" }, v.understanding.capability_tags.map((t) => badge("tag", t))) : null) : null,
    root ? h("p", { class: "round", id: "round" }, root.round ? "第 " + root.round + " / " + (root.max_rounds || "?") + " 轮"
      : "收集回应中，第 1 轮尚未开始（最多 " + (root.max_rounds || "?") + " 轮）") : null,
    failure ? outcomeCard({ kind: "failed", reason: failure.reason, error_code: failure.error_code, suggestion: failure.suggestion }, v) : null);
}

// renderTree shows the root channel and, nested, its sub-negotiations.
export function renderTree(v) {
  const root = rootChannel(v);
  if (!root && v && v.rejection) return [rejectionCard(v)];
  if (!root) return [h("section", { class: "card muted" }, v && v.failure ? "没有创建协商频道。" : "等待协调者理解需求、挑选候选人……")];
  return channelView(v, root, true);
}

// channelView renders one channel; its sub-negotiations are nested under
// the gap each one fills.
function channelView(v, ch, isRoot) {
  const who = nameOf(v);
  const out = [];
  if (ch.outcome) out.push(outcomeCard(ch.outcome, v, ch.merged_plan));
  if (ch.merged_plan) out.push(mergedCard(v, ch.merged_plan));
  if (ch.proposal) {
    out.push(proposalCard(v, ch.proposal, ch.proposal_round));
    out.push(h("section", { class: "card", id: isRoot ? "feedback" : null },
      h("h2", {}, "反馈（方案 v" + ch.proposal.version + "）"),
      ch.feedback.length ? h("div", { class: "tablewrap" }, h("table", {},
        h("tbody", {}, ch.feedback.map((f) => h("tr", {},
          h("td", {}, who(f.agent_id)), h("td", {}, badge(f.feedback_type)),
          h("td", {}, f.actor === "system" ? h("span", { class: "muted" }, "超时未答，按接受计") : [f.reasoning, f.adjustment_request ? h("div", { class: "small muted" }, "请求：" + f.adjustment_request) : null])))))) :
        h("p", { class: "muted" }, "等待参与者反馈……")));
  }
  const offers = new Map(ch.offers.map((o) => [o.agent_id, o]));
  out.push(h("section", { class: "card", id: isRoot ? "candidates" : null },
    h("h2", {}, "候选人与回应 ", h("span", { class: "muted small" }, ch.offers.length + " / " + ch.candidates.length)),
    h("div", { class: "tablewrap" }, h("table", {}, h("tbody", {}, ch.candidates.map((c) => {
      const o = offers.get(c.agent_id);
      return h("tr", { "data-agent": c.agent_id },
        h("td", {}, h("a", { href: "#/agents/" + c.agent_id }, c.display_name || c.agent_id),
          c.relevance_score ? h("div", { class: "small muted" }, "匹配 " + c.relevance_score) : null),
        h("td", { class: "small" }, c.reason),
        h("td", {}, o ? [badge(o.decision), o.contribution ? h("div", { class: "small" }, o.contribution) : null,
          (o.conditions || []).length ? h("div", { class: "small muted" }, "条件：" + o.conditions.join("；")) : null,
          o.decline_reason ? h("div", { class: "small muted" }, o.decline_reason) : null] : h("span", { class: "muted small" }, "等待回应")));
    }))))));
  if (ch.gaps.length) {
    out.push(h("section", { class: "card", id: isRoot ? "gaps" : null }, h("h2", {}, "缺口与子协商"),
      ch.gaps.map((g) => {
        const sub = g.sub_channel_id && channelOf(v, g.sub_channel_id);
        return h("div", { class: "gap" },
          h("div", {}, h("b", {}, g.gap_type), " ", h("span", { class: "muted small" }, "重要度 " + g.importance + " · " + g.reason)),
          g.description ? h("div", { class: "small" }, g.description) : null,
          g.sub_channel_id ? h("div", { class: "sub-negotiation", "data-sub-channel": g.sub_channel_id },
            h("div", { class: "small" }, "子协商 ", sub ? badge(sub.completed ? sub.status : "processing", sub.completed ? label(sub.status) : "进行中 · 第 " + sub.round + " 轮") : badge("processing", "启动中")),
            sub ? channelView(v, sub, false) : null) : h("div", { class: "small muted" }, "未开启子协商"));
      })));
  }
  return out;
}

// proposalCard shows a proposal version (distributed in round): summary,
// changes, assignments, alternates, gaps, criteria, risks, open questions
// and timeline.
function proposalCard(v, p, round) {
  const who = (a) => a.display_name || nameOf(v)(a.agent_id);
  const adj = p.adjustment_summary;
  return h("section", { class: "card", "data-proposal-version": p.version },
    h("div", { class: "row" }, h("h2", { style: "margin:0" }, "方案 v" + p.version), p.type === "compromise" ? badge("warn", "妥协方案") : null,
      h("span", { class: "muted small" }, "第 " + round + " 轮")),
    h("p", {}, p.summary),
    p.objective ? h("p", { class: "small muted" }, "目标：" + p.objective) : null,
    adj && (adj.changes_made || []).length ? h("div", { class: "changes", id: "changes" }, h("b", {}, "相比上一版的变化"),
      h("ul", {}, adj.changes_made.map((c) => h("li", {}, h("b", {}, c.aspect + "："), (c.before || "—") + " → " + (c.after || "—"), c.reason ? h("span", { class: "muted small" }, "（" + c.reason + "）") : null)))) : null,
    h("h3", {}, "分工"),
    h("div", { class: "tablewrap" }, h("table", { class: "assignments" },
      h("thead", {}, h("tr", {}, h("th", {}, "角色"), h("th", {}, "职责"), h("th", {}, "Agent"))),
      h("tbody", {}, (p.assignments || []).map((a) => h("tr", {}, h("td", {}, a.role),
        h("td", {}, a.responsibility, a.notes ? h("div", { class: "small muted" }, a.notes) : null,
          a.conditions_accepted === false ? h("div", { class: "small warn-text", "data-conditions": "open" }, "参与条件尚未全部纳入方案") : null),
        h("td", {}, h("a", { href: "#/agents/" + a.agent_id }, who(a)))))))),
    (p.alternates || []).length ? [h("h3", {}, "候补"), h("ul", { class: "alternates" }, p.alternates.map((a) =>
      h("li", {}, (a.need || a.role || "候补") + " — ", h("a", { href: "#/agents/" + a.agent_id }, who(a)))))] : null,
    (p.gaps || []).length ? h("p", { class: "small" }, "缺口：" + p.gaps.join("、")) : null,
    (p.success_criteria || []).length ? [h("h3", {}, "成功标准"), h("ul", { class: "criteria" }, p.success_criteria.map((c) => h("li", {}, c)))] : null,
    (p.risks || []).length ? [h("h3", {}, "风险"), h("ul", { class: "risks" }, p.risks.map((r) => h("li", {}, r)))] : null,
    (p.open_questions || []).length ? [h("h3", {}, "待确认"), h("ul", { class: "open-questions" }, p.open_questions.map((q) => h("li", {}, q)))] : null,
    p.timeline && (p.timeline.milestones || []).length ? [h("h3", {}, "时间线"),
      h("ul", {}, p.timeline.milestones.map((m) => h("li", {}, h("b", {}, m.date), " ", m.name, m.deliverable ? h("span", { class: "muted" }, "：" + m.deliverable) : null)))] : null);
}

// outcomeCard shows how a channel (or the demand) ended. With the tree's
// merged plan, the participants are everyone in it: the sub-negotiations'
// people took part in the agreement too.
function outcomeCard(o, v, merged) {
  const who = nameOf(v);
  const title = { finalized: "协商达成", force_finalized: "强制定稿（已到最后一轮）", failed: "协商失败" }[o.kind] || label(o.kind);
  return h("section", { class: "card outcome " + o.kind, id: "outcome", "data-outcome": o.kind },
    h("h2", {}, title, o.rounds ? h("span", { class: "muted small" }, "  共 " + o.rounds + " 轮") : null),
    o.kind === "failed" ? h("p", {}, (o.error_code ? "[" + o.error_code + "] " : "") + label(o.reason), o.suggestion ? h("div", { class: "small" }, "建议：" + o.suggestion) : null) : null,
    o.kind === "force_finalized" ? [h("p", {}, "确认参与：", (o.confirmed || []).map(who).join("、") || "无"),
      h("p", {}, "可选参与（仍在协商）：", (o.optional || []).map(who).join("、") || "无")] : null,
    o.kind === "finalized" ? h("p", {}, "参与者：", participantsOf(o, merged).map(who).join("、")) : null,
    o.proposal && o.proposal.type === "compromise" ? h("p", { class: "small muted" }, "妥协方案：" + o.proposal.summary) : null);
}

// participantsOf is who took part in an outcome: the channel's own
// participants, then those the merged plan adds, each once.
function participantsOf(o, merged) {
  const ids = [...(o.participants || [])];
  for (const a of (merged && merged.assignments) || []) if (!ids.includes(a.agent_id)) ids.push(a.agent_id);
  return ids;
}

// rejectionCard explains why a demand was not negotiated and lets the user
// answer its questions: the answer starts a new demand linked to it.
function rejectionCard(v) {
  const r = v.rejection;
  const text = h("textarea", { id: "clarify-input", maxlength: 2000, placeholder: "补充说明：要做什么、需要哪些角色和人数、地点和时间" });
  const status = h("p", { class: "small" });
  const send = h("button", { type: "button", id: "clarify-submit", onclick: async () => {
    send.disabled = true;
    try {
      const out = await postJSON("/api/v1/demands/" + v.demand_id + "/clarify", { text: text.value });
      location.hash = "#/n/" + out.demand_id;
    } catch (e) { fill(status, h("span", { class: "error" }, describe(e))); send.disabled = false; }
  } }, "补充后重新协商");
  return h("section", { class: "card outcome failed", id: "rejection", "data-reason": r.reason },
    h("h2", {}, "需求未受理"), h("p", {}, r.message || r.reason),
    (r.unserved_needs || []).length ? h("p", {}, "网络中没有人能提供：" + r.unserved_needs.join("、")) : null,
    (r.questions || []).length ? h("ul", {}, r.questions.map((q) => h("li", {}, q))) : null,
    r.suggestion ? h("p", { class: "small muted" }, r.suggestion) : null,
    text, h("div", { class: "row" }, send), status);
}

// mergedCard shows the one plan of a negotiation tree: the agreement and
// what its sub-negotiations added, each marked with where it came from
// (the gap its sub-negotiation filled).
function mergedCard(v, p) {
  const who = (a) => a.display_name || nameOf(v)(a.agent_id);
  const gapOf = (sub) => {
    for (const ch of v.channels) for (const g of ch.gaps || []) if (g.sub_channel_id === sub) return g.gap_type;
    return "";
  };
  return h("section", { class: "card", id: "merged-plan" },
    h("h2", {}, "合并方案 ", h("span", { class: "muted small" }, p.assignments.length + " 项分工")),
    h("div", { class: "tablewrap" }, h("table", { class: "assignments" },
      h("thead", {}, h("tr", {}, h("th", {}, "角色"), h("th", {}, "Agent"), h("th", {}, "来自"))),
      h("tbody", {}, (p.assignments || []).map((a) => h("tr", { "data-sub-channel": a.sub_channel_id || "" },
        h("td", {}, a.role), h("td", {}, h("a", { href: "#/agents/" + a.agent_id }, who(a))),
        h("td", { class: "small muted" }, a.sub_channel_id ? "子协商" + (gapOf(a.sub_channel_id) ? "（" + gapOf(a.sub_channel_id) + "）" : "") : "主协商")))))),
    (p.gaps || []).length ? h("p", { class: "small" }, "仍缺：" + p.gaps.join("、")) : null);
}

