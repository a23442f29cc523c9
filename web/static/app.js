// ToWow console: a hash-routed single page over the public API. Every text
// that comes from the API (and so, often, from an LLM) is set with
// textContent, never parsed as HTML.
"use strict";

const EVENT_TYPES = [
  "towow.demand.submitted", "towow.demand.understood", "towow.demand.broadcast", "towow.demand.accepted",
  "towow.demand.rejected", "towow.filter.started", "towow.filter.completed", "towow.channel.created",
  "towow.channel.invite_sent", "towow.channel.status_changed", "towow.channel.closed", "towow.channel.rules_changed", "towow.offer.requested",
  "towow.offer.submitted", "towow.offer.timeout", "towow.aggregation.started", "towow.proposal.distributed",
  "towow.proposal.feedback", "towow.proposal.adjusting", "towow.proposal.finalized", "towow.feedback.evaluated",
  "towow.negotiation.round_started", "towow.negotiation.force_finalized", "towow.negotiation.failed",
  "towow.negotiation.completed", "towow.negotiation.forked", "towow.gap.identified", "towow.subnet.triggered", "towow.subnet.completed",
  "towow.agent.online", "towow.agent.offline", "towow.agent.withdrawn", "towow.agent.registered",
  "towow.agent.updated", "towow.agent.deactivated", "towow.agent.reactivated", "towow.agent.token_issued",
  "towow.error.occurred",
  "towow.workflow.created", "towow.workflow.node_added", "towow.workflow.node_updated", "towow.workflow.node_deleted",
  "towow.workflow.node_moved", "towow.workflow.edge_added", "towow.workflow.edge_deleted", "towow.workflow.started",
  "towow.workflow.completed", "towow.workflow.failed", "towow.workflow.cancelled", "towow.node.started",
  "towow.node.completed", "towow.node.failed", "towow.node.skipped", "towow.decision.validated", "towow.decision.rejected",
  "towow.conversation.message", "towow.conversation.step", "towow.conversation.replied",
];

const EXAMPLES = [
  "我想在北京办一场AI主题聚会，需要场地和嘉宾",
  "杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序",
  "上海周末想组织一次亲子读书会，需要场地和会讲故事的志愿者",
  "We need a venue and two speakers in Beijing for a small AI meetup next month",
];

const LABELS = {
  participate: "参与", decline: "拒绝", conditional: "有条件参与",
  accept: "接受", negotiate: "协商", withdraw: "退出", reject: "反对",
  finalized: "已达成", force_finalized: "强制定稿", failed: "失败", completed: "已完成", processing: "进行中", rejected: "未受理",
  created: "已创建", broadcasting: "广播中", collecting: "收集回应", aggregating: "汇总方案",
  proposal_sent: "方案已发出", negotiating: "协商中", next_round: "进入下一轮", finalize: "定稿", fail: "失败", force_finalize: "强制定稿",
  draft: "草稿", running: "执行中", cancelled: "已取消",
  twin: "数字分身", external: "外部 Agent", closed: "正常", "half-open": "半开", open: "熔断",
};
const label = (k) => LABELS[k] || k || "";

// ---------- DOM and API helpers ----------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}
// fill replaces el's children, skipping null and false (replaceChildren
// would print them).
function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false)
    .map((c) => c instanceof Node ? c : document.createTextNode(String(c))));
}
const badge = (value, text) => h("span", { class: "badge b-" + value }, text || label(value));
const fmtTime = (ts) => ts ? new Date(ts).toLocaleString("zh-CN", { hour12: false }) : "";
const clock = (ts) => ts ? new Date(ts).toLocaleTimeString("zh-CN", { hour12: false }) : "";

// ApiError carries the problem+json of a refused request.
class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || ("HTTP " + status));
    this.status = status;
    this.code = problem && problem.code;
    this.problem = problem || {}; // the whole body: a canvas conflict carries the current canvas
  }
}
function describe(err) {
  if (err instanceof ApiError) return (err.code ? "[" + err.code + "] " : "") + err.message;
  return "无法连接服务器：" + err.message;
}

async function api(path, opts) {
  const resp = await fetch(path, opts);
  const text = await resp.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
  if (!resp.ok) throw new ApiError(resp.status, body);
  return body;
}

const banner = document.getElementById("banner");
function showBanner(msg, kind) {
  banner.textContent = msg;
  banner.className = "banner" + (kind ? " " + kind : "");
  banner.hidden = !msg;
}

// ---------- live streams ----------

// SSE_RECONNECT is 001 ADR-005's reconnect policy: after a dropped
// connection, try again after 3 s, each next wait ×1.5, at most 5 times,
// each time right after the last event received (last_event_id); then say
// so with a "重试" control. (localStorage "towow.sse.delay" shortens the
// first wait, in ms: the browser test uses it.)
const SSE_RECONNECT = { attempts: 5, delay: 3000, backoff: 1.5 };

// followStream follows an SSE url with listeners by event type, from
// cursor from (0: the start), under that policy. gone, when given, is asked
// after the server refused the stream (an HTTP error, not a dropped
// connection) and returns true to stop (it shows why). It returns the
// function that stops following.
function followStream(url, listeners, from, gone) {
  let es = null, last = from || 0, attempt = 0, timer = null, stopped = false;
  const first = Number(localStorage.getItem("towow.sse.delay")) || SSE_RECONNECT.delay;
  const open = () => {
    es = new EventSource(url + (last ? (url.includes("?") ? "&" : "?") + "last_event_id=" + last : ""));
    for (const [type, fn] of Object.entries(listeners)) {
      es.addEventListener(type, (msg) => { last = Math.max(last, Number(msg.lastEventId) || 0); fn(msg); });
    }
    es.onopen = () => { attempt = 0; showBanner(""); };
    es.onerror = async () => {
      const refused = es.readyState === EventSource.CLOSED;
      es.close(); // the policy below retries, not the browser
      if (stopped || (refused && gone && await gone())) return;
      if (attempt >= SSE_RECONNECT.attempts) {
        banner.className = "banner lost";
        fill(banner, "连接已断开：重连 " + SSE_RECONNECT.attempts + " 次都没有成功。 ",
          h("button", { type: "button", id: "reconnect", onclick: () => { attempt = 0; showBanner("连接中……", "info"); open(); } }, "重试"));
        banner.hidden = false;
        return;
      }
      const wait = first * Math.pow(SSE_RECONNECT.backoff, attempt);
      attempt++;
      showBanner("连接中断，" + (wait / 1000).toFixed(1) + " 秒后第 " + attempt + " / " + SSE_RECONNECT.attempts +
        " 次重连（从最后收到的事件继续）……", "info");
      timer = setTimeout(open, wait);
    };
  };
  open();
  return () => { stopped = true; clearTimeout(timer); if (es) es.close(); };
}

// ---------- router ----------

const app = document.getElementById("app");
let cleanup = () => {};

function route() {
  cleanup();
  cleanup = () => {};
  showBanner("");
  const parts = (location.hash.replace(/^#\/?/, "") || "").split("/").map(decodeURIComponent);
  const [page, id] = parts;
  document.querySelectorAll("[data-nav]").forEach((a) => a.classList.toggle("active",
    a.dataset.nav === (page || "home") || (["n", "w", "compare", "fork"].includes(page) && a.dataset.nav === "history")));
  fill(app);
  window.scrollTo(0, 0);
  if (page === "n" && id) return negotiationPage(id);
  if (page === "w" && id) return workflowPage(id);
  if (page === "history") return historyPage();
  if (page === "fork" && id) return comparePage("/api/v1/forks/" + encodeURIComponent(id) + "/compare", ["原协商", "分叉"]);
  if (page === "compare" && id && parts[2]) {
    return comparePage("/api/v1/negotiations/compare?" + new URLSearchParams({ left: id, right: parts[2] }), ["协商 A", "协商 B"]);
  }
  if (page === "agents" && id) return agentPage(id);
  if (page === "agents") return agentsPage();
  if (page === "ops") return opsPage();
  return homePage();
}
window.addEventListener("hashchange", route);

// ---------- home: submit a demand ----------

function homePage() {
  const text = h("textarea", { id: "demand-input", maxlength: 10000, placeholder: "用中文或英文写下你的需求……" });
  const user = h("input", { id: "user-input", value: localStorage.getItem("towow.user") || "user_demo", size: 16, maxlength: 128 });
  const err = h("div", { class: "error", role: "alert" });
  const submit = h("button", { id: "submit-demand", type: "submit" }, "提交需求");
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      submit.disabled = true;
      try {
        localStorage.setItem("towow.user", user.value);
        const out = await api("/api/v1/demand/submit", {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ raw_input: text.value, user_id: user.value }),
        });
        location.hash = "#/n/" + out.demand_id;
      } catch (ex) {
        err.textContent = describe(ex);
      } finally {
        submit.disabled = false;
      }
    },
  },
  h("h1", {}, "提出一个需求，看 Agent 们如何协商"),
  h("p", { class: "muted" }, "协调者理解需求、挑选候选 Agent；频道管理员广播需求、收集回应、汇总方案，最多协商 5 轮，发现缺口时开启子协商。每一步都实时显示。"),
  text,
  h("div", { class: "row examples", style: "margin:.6rem 0" }, h("span", { class: "muted small" }, "示例："),
    EXAMPLES.map((ex) => h("button", { type: "button", class: "example", onclick: () => { text.value = ex; text.focus(); } }, ex))),
  h("div", { class: "row" }, h("label", { for: "user-input", class: "muted" }, "用户"), user, submit),
  err);
  app.append(h("section", { class: "card" }, form), recentCard());
}

function recentCard() {
  const list = h("div", {}, h("p", { class: "muted" }, "加载中……"));
  api("/api/v1/demands?limit=8").then((out) => fill(list, demandTable(out.demands)))
    .catch((e) => fill(list, h("p", { class: "error" }, describe(e))));
  return h("section", { class: "card" }, h("h2", {}, "最近的协商"), list);
}

// pct writes a share as a percentage ("" when absent).
const pct = (x) => (typeof x === "number" ? Math.round(x * 100) + "%" : "");

// qualityCells are the demand rows' quality cells, filled from the aggregate (one
// request for the whole table).
function qualityCells(demands) {
  const cells = {};
  demands.forEach((d) => { cells[d.demand_id] = h("td", { class: "small quality" }, ""); });
  api("/api/v1/quality?limit=" + Math.min(200, Math.max(1, demands.length))).then((out) => {
    (out.reports || []).forEach((r) => {
      const c = cells[r.demand_id];
      if (c && r.status !== "rejected" && r.tree.assignees) {
        fill(c, "覆盖 " + pct(r.tree.need_coverage) + " · 多余 " + r.tree.padding + " · 相关 " + pct(r.tree.relevance));
      }
    });
  }).catch(() => {});
  return cells;
}

// demandTable lists demands; with select (the history page's), each row
// starts with a checkbox: select.checked(id) says whether it is ticked,
// select.toggle(id, on) is called when it is (un)ticked.
function demandTable(demands, select) {
  if (!demands.length) return h("p", { class: "muted" }, "还没有协商。");
  const quality = qualityCells(demands);
  return h("div", { class: "tablewrap" }, h("table", { id: "demand-table" },
    h("thead", {}, h("tr", {}, select ? h("th", {}, "对比") : null, h("th", {}, "时间"), h("th", {}, "需求"), h("th", {}, "状态"), h("th", {}, "轮次"), h("th", {}, "参与者"), h("th", {}, "质量"))),
    h("tbody", {}, demands.map((d) => {
      const fp = d.final_proposal || null;
      return h("tr", { "data-demand": d.demand_id },
        select ? h("td", {}, h("input", { type: "checkbox", class: "compare-pick", "data-demand": d.demand_id, "aria-label": "选择以对比",
          checked: select.checked(d.demand_id), onchange: (e) => select.toggle(d.demand_id, e.target.checked) })) : null,
        h("td", { class: "small" }, fmtTime(d.created_at)),
        h("td", {}, h("a", { href: "#/n/" + d.demand_id }, d.raw_input)),
        h("td", {}, badge(d.outcome && d.status !== "processing" ? d.outcome.split(":")[0] : d.status,
          d.status === "processing" ? "进行中" : label(d.outcome) || label(d.status))),
        h("td", {}, d.rounds_taken || ""),
        h("td", {}, fp && fp.assignments ? fp.assignments.length : ""),
        quality[d.demand_id]);
    }))));
}

// QUALITY_ROWS are the rows of a quality table: a score's name and how one
// Scores object (a root channel's or a whole tree's) reads.
const QUALITY_ROWS = [
  ["需求覆盖", (s) => pct(s.need_coverage) + "（" + s.places + " 个名额）"],
  ["多余分配", (s) => String(s.padding)],
  ["相关性", (s) => pct(s.relevance)],
  ["轮次", (s) => String(s.rounds)],
  ["最终接受率", (s) => pct(s.final_accept_rate)],
  ["稳定性", (s) => pct(s.stability)],
  ["福利（平均 / 纳什）", (s) => s.welfare_utilitarian + " / " + s.welfare_nash],
  ["LLM 调用", (s) => s.llm.calls + " 次，" + s.llm.input_tokens + "+" + s.llm.output_tokens + " tokens，回退 " + s.llm.fallbacks + "，复用 " + (s.llm.reused || 0)],
  ["达成用时", (s) => (s.time_to_agreement_ms ? (s.time_to_agreement_ms / 1000).toFixed(1) + " 秒" : "—")],
];

// qualityTable shows Scores objects side by side, one column each under
// its header.
function qualityTable(headers, scores) {
  return h("div", { class: "tablewrap" }, h("table", { class: "quality-table" },
    h("thead", {}, h("tr", {}, h("th", {}, ""), headers.map((t) => h("th", {}, t)))),
    h("tbody", {}, QUALITY_ROWS.map(([name, f]) => h("tr", {}, h("td", {}, name), scores.map((sc) => h("td", {}, f(sc))))))));
}

// qualityCard shows a negotiation's quality scores (the root channel and
// the whole tree), fetched when it ends.
function qualityCard(q) {
  return h("section", { class: "card", id: "quality", "data-final": String(q.final) },
    h("h2", {}, "质量评分 ", h("span", { class: "muted small" }, q.final ? "" : "（进行中，目前为止）")),
    qualityTable(["主协商", "整棵协商树"], [q.root, q.tree]));
}

// ---------- negotiation: live view ----------

// reduce folds one event into the negotiation's state (every channel of the
// tree, keyed by channel id).
function newState(rootDemandId) {
  return { root: rootDemandId, demand: null, understanding: null, failure: null, channels: {}, demandChannel: {}, names: {} };
}
function channelOf(s, id) {
  if (!s.channels[id]) {
    s.channels[id] = { id, demandId: "", parent: "", depth: 0, candidates: [], offers: {}, offerOrder: [], proposals: [],
      feedback: {}, round: 0, maxRounds: 0, status: "created", evaluations: [], gaps: [], subnets: [], outcome: null, completed: false };
  }
  return s.channels[id];
}
function reduce(s, ev) {
  const p = ev.payload || {};
  // Subnet events name the channel that spawned them as parent_channel_id.
  const chID = p.channel_id || (ev.event_type.startsWith("towow.subnet.") ? p.parent_channel_id : "");
  const ch = chID ? channelOf(s, chID) : null;
  switch (ev.event_type) {
    case "towow.demand.submitted": if (p.demand_id === s.root) s.demand = p; break;
    case "towow.demand.understood": if (p.demand_id === s.root) s.understanding = p; break;
    case "towow.filter.completed":
    case "towow.channel.created":
      for (const c of p.candidates || []) s.names[c.agent_id] = c.display_name || c.agent_id;
      if (ch) {
        ch.candidates = p.candidates || []; ch.demandId = p.demand_id; ch.parent = p.parent_channel || "";
        ch.depth = p.recursion_depth || 0; ch.maxRounds = p.max_rounds || ch.maxRounds; s.demandChannel[p.demand_id] = ch.id;
      }
      break;
    case "towow.demand.accepted": s.demandChannel[p.demand_id] = p.channel_id; break;
    case "towow.channel.invite_sent": // a candidate added after the channel opened (a fork's add_agent)
      if (ch && !ch.candidates.some((c) => c.agent_id === p.agent_id)) {
        ch.candidates = ch.candidates.concat([{ agent_id: p.agent_id, display_name: p.display_name, reason: p.reason }]);
      }
      if (p.display_name) s.names[p.agent_id] = p.display_name;
      break;
    case "towow.channel.rules_changed": if (ch) ch.maxRounds = p.rules.max_rounds; break;
    case "towow.channel.status_changed": ch.status = p.new_status; break;
    case "towow.offer.submitted":
      if (!ch.offers[p.agent_id]) ch.offerOrder.push(p.agent_id);
      ch.offers[p.agent_id] = p;
      if (p.display_name) s.names[p.agent_id] = p.display_name;
      break;
    case "towow.negotiation.round_started": ch.round = p.round; ch.maxRounds = p.max_rounds || ch.maxRounds; break;
    case "towow.proposal.distributed": ch.proposals.push({ round: p.round, proposal: p.proposal, cursor: ev.cursor }); ch.round = p.round; break;
    case "towow.proposal.feedback":
      (ch.feedback[p.proposal_version] = ch.feedback[p.proposal_version] || {})[p.agent_id] = Object.assign({ actor: ev.metadata && ev.metadata.actor }, p);
      break;
    case "towow.feedback.evaluated": ch.evaluations.push(p); break;
    case "towow.proposal.finalized": ch.outcome = { kind: "finalized", proposal: p.final_proposal, participants: p.participants || [], rounds: p.rounds_taken }; break;
    case "towow.negotiation.force_finalized":
      ch.outcome = { kind: "force_finalized", proposal: p.final_proposal, confirmed: p.confirmed_participants || [],
        optional: p.optional_participants || [], rounds: p.rounds_taken, acceptRate: p.accept_rate };
      break;
    case "towow.demand.rejected":
      if (p.demand_id === s.root) s.rejection = p;
      break;
    case "towow.negotiation.forked":
      if (p.demand_id === s.root) s.fork = p;
      break;
    case "towow.negotiation.failed":
      if (ch) ch.outcome = { kind: "failed", reason: p.reason, code: p.error_code, suggestion: p.suggestion, proposal: p.last_proposal };
      else if (p.demand_id === s.root) s.failure = p;
      break;
    case "towow.gap.identified": ch.gaps = p.gaps || []; break;
    case "towow.subnet.triggered": ch.subnets.push(p); break;
    case "towow.subnet.completed": {
      const sn = ch.subnets.find((x) => x.sub_channel_id === p.sub_channel_id);
      if (sn) sn.result = p;
      break;
    }
    case "towow.negotiation.completed":
      ch.completed = true; ch.status = p.status; ch.merged = p.merged_plan || null;
      if (!ch.outcome) ch.outcome = { kind: p.status, proposal: p.final_proposal, rounds: p.rounds_taken };
      break;
  }
}

// changeText says what a fork changes (who names an agent).
function changeText(change, who) {
  if (!change || change.type === "none") return "不做改变（重放）";
  switch (change.type) {
    case "remove_agent": return "去掉 " + who(change.agent_id);
    case "add_agent": return "加入 " + who(change.agent_id);
    case "replace_offer": return who(change.agent_id) + " 的回应改为「" + label((change.offer || {}).decision) + "」";
    case "replace_feedback": return who(change.agent_id) + " 的反馈改为「" + label((change.feedback || {}).feedback_type) + "」";
    case "change_rule": return "规则改为 " + JSON.stringify(change.rules || {});
    case "change_demand": return "需求改为「" + change.text + "」";
  }
  return change.type;
}

function summarize(s, ev) {
  const p = ev.payload || {};
  const who = (id) => s.names[id] || id;
  switch (ev.event_type) {
    case "towow.demand.submitted": return ["需求提交", p.raw_input];
    case "towow.demand.understood": return ["理解需求", p.surface_demand + ((p.needs || []).length ? "（需要：" + p.needs.map((n) => n.role + (n.count > 1 ? " ×" + n.count : "")).join("、") + "）" : "")];
    case "towow.demand.rejected": return ["需求未受理", (p.message || p.reason) + (p.unserved_needs && p.unserved_needs.length ? "：" + p.unserved_needs.join("、") : "") + (p.suggestion ? "（" + p.suggestion + "）" : "") + (p.questions && p.questions.length ? " 请补充：" + p.questions.join("；") : "")];
    case "towow.filter.started": return ["开始筛选", "在 " + p.total_agents + " 个 Agent 中"];
    case "towow.filter.completed": return ["筛选完成", (p.candidates || []).length + " 位候选人"];
    case "towow.demand.accepted": return ["创建频道", p.channel_id];
    case "towow.channel.created": return ["频道已创建", (p.candidates || []).length + " 位受邀"];
    case "towow.channel.invite_sent": return p.broadcast ? ["已邀请", who(p.agent_id)] : ["加入候选人", who(p.agent_id) + (p.reason ? "（" + p.reason + "）" : "")];
    case "towow.channel.closed": return ["频道关闭", label(p.status)];
    case "towow.channel.rules_changed": return ["规则改变", "最多 " + p.rules.max_rounds + " 轮" + (p.rules.accept_percent ? "，接受率达 " + p.rules.accept_percent + "% 定稿" : "") + (p.rules.fail_percent ? "，低于 " + p.rules.fail_percent + "% 失败" : "")];
    case "towow.channel.status_changed": return ["状态", label(p.old_status) + " → " + label(p.new_status)];
    case "towow.demand.broadcast": return ["广播需求", "发给 " + p.recipients_count + " 位" + (p.urgency === "high" ? "（紧急）" : p.urgency === "low" ? "（不急）" : "")];
    case "towow.offer.requested": return ["请求回应", who(p.agent_id)];
    case "towow.offer.submitted": return ["回应", who(p.agent_id) + "：" + label(p.decision)];
    case "towow.offer.timeout": return ["回应超时", "收到 " + p.offers_count + " 份"];
    case "towow.aggregation.started": return ["汇总方案", p.offers_count + " 份回应"];
    case "towow.negotiation.round_started": return ["新一轮", "第 " + p.round + " / " + p.max_rounds + " 轮"];
    case "towow.proposal.distributed": return ["方案分发", "v" + p.proposal.version + "：" + (p.proposal.summary || "")];
    case "towow.proposal.feedback": return ["反馈", who(p.agent_id) + "：" + label(p.feedback_type)];
    case "towow.agent.withdrawn": return ["退出", who(p.agent_id) + "：" + (p.reason || "")];
    case "towow.agent.online": return ["上线", who(p.agent_id) + ((p.capabilities || []).length ? "（" + p.capabilities.join("、") + "）" : "")];
    case "towow.agent.offline": return ["下线", who(p.agent_id) + (p.reason ? "：" + p.reason : "")];
    case "towow.feedback.evaluated": return ["评估", "第 " + p.round + " 轮接受率 " + Math.round(p.accept_rate * 100) + "% → " + label(p.decision)];
    case "towow.proposal.adjusting": return ["调整方案", "准备第 " + p.round + " 轮"];
    case "towow.proposal.finalized": return ["方案定稿", (p.participants || []).length + " 位参与者，" + p.rounds_taken + " 轮"];
    case "towow.negotiation.force_finalized": return ["强制定稿", "确认 " + (p.confirmed_participants || []).length + " 位，可选 " + (p.optional_participants || []).length + " 位"];
    case "towow.negotiation.failed": return ["协商失败", (p.error_code ? p.error_code + " " : "") + (p.reason || "") + (p.suggestion ? "（" + p.suggestion + "）" : "")];
    case "towow.gap.identified": return ["发现缺口", (p.gaps || []).map((g) => g.gap_type).join("、") || "无"];
    case "towow.subnet.triggered": return ["子协商", "为「" + p.gap_type + "」开启 " + p.sub_channel_id];
    case "towow.subnet.completed": return ["子协商结束", p.sub_channel_id + "：" + label(p.status)];
    case "towow.negotiation.completed": return ["协商结束", label(p.status)];
    case "towow.negotiation.forked": return ["分叉", "分叉自 " + p.forked_from + " @" + p.at + "，改变：" + changeText(p.change, who)];
    case "towow.error.occurred": return [p.recoverable ? "错误（可恢复）" : "错误", (p.error_code || "") + " " + (p.error_message || "")];
    case "towow.workflow.created": return ["执行计划", (p.nodes || []).length + " 个步骤（草稿）"];
    case "towow.decision.validated": return ["决策通过", p.decision.decision_type + " → v" + p.version + ((p.corrections || []).length ? "（已修正）" : "")];
    case "towow.decision.rejected": return ["决策被拒", p.decision.decision_type + "：" + p.reason];
    case "towow.workflow.node_added": return ["新增步骤", p.node.title];
    case "towow.workflow.node_updated": return ["修改步骤", p.node.title];
    case "towow.workflow.node_deleted": return ["删除步骤", p.node_id];
    case "towow.workflow.node_moved": return ["移动步骤", p.node_id];
    case "towow.workflow.edge_added": return ["新增依赖", p.edge.from + " → " + p.edge.to];
    case "towow.workflow.edge_deleted": return ["删除依赖", p.edge.from + " → " + p.edge.to];
    case "towow.workflow.started": return ["开始执行", p.node_count + " 个步骤"];
    case "towow.node.started": return ["步骤开始", p.node_id + "（第 " + p.attempt + " 次）"];
    case "towow.node.completed": return ["步骤完成", p.node_id + "：" + ((p.result || {}).summary || "")];
    case "towow.node.failed": return ["步骤失败", p.node_id + "：" + p.error + (p.retry ? "（将重试）" : "")];
    case "towow.node.skipped": return ["步骤跳过", p.node_id + "：" + p.reason];
    case "towow.workflow.completed": return ["执行完成", (p.results || []).length + " 个结果"];
    case "towow.workflow.failed": return ["执行失败", p.failed_node + "：" + p.error];
    case "towow.workflow.cancelled": return ["执行取消", p.reason || ""];
    case "towow.conversation.message": return ["对话", p.text];
    case "towow.conversation.step": return ["助手", (p.action.thought || "") + (p.action.tool ? " → " + p.action.tool : "") + (p.observation ? "：" + p.observation : "")];
    case "towow.conversation.replied": return ["助手回复", p.reply];
  }
  return [ev.event_type.replace("towow.", ""), ""];
}

function negotiationPage(demandId) {
  const state = newState(demandId);
  const seen = new Set();
  const events = [];
  const timeline = h("ol", { class: "timeline", id: "timeline" });
  const head = h("div", {});
  const side = h("div", { id: "negotiation" });
  const replay = h("section", { class: "card replay", id: "replay", hidden: true });
  const quality = h("div", {});
  const wfLink = h("div", { id: "workflow-link", class: "row", hidden: true });
  app.append(h("section", { class: "card" }, head, wfLink),
    h("div", { class: "grid" },
      h("div", {}, quality, h("section", { class: "card" }, h("h2", {}, "事件时间线 ", h("span", { class: "muted small", id: "event-count" })), timeline), replay),
      side));

  let scheduled = false;
  const render = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      renderHead(head, state);
      fill(side, ...renderTree(state));
      document.getElementById("event-count").textContent = "（" + events.length + " 个）";
      const root = rootChannel(state);
      if (root && root.completed && replay.hidden) setupReplay(replay, state, events);
      if (root && root.completed && !wfLink.dataset.loaded) {
        wfLink.dataset.loaded = "1";
        // The workflow an agreement became (none after a failure).
        api("/api/v1/workflows?demand_id=" + encodeURIComponent(demandId)).then((out) => {
          const wf = (out.workflows || [])[0];
          if (!wf) return;
          fill(wfLink, h("a", { class: "button", id: "open-workflow", href: "#/w/" + encodeURIComponent(wf.workflow_id) }, "查看执行计划"),
            h("span", { class: "muted small" }, (wf.nodes || []).length + " 个步骤 · " + label(wf.status)));
          wfLink.hidden = false;
        }).catch(() => {});
      }
      if (((root && root.completed) || state.failure) && !quality.dataset.loaded) {
        quality.dataset.loaded = "1";
        api("/api/v1/demands/" + demandId + "/quality").then((q) => fill(quality, qualityCard(q))).catch(() => {});
      }
    });
  };

  const onEvent = (msg) => {
    const cursor = Number(msg.lastEventId);
    if (seen.has(cursor)) return; // a resumed stream never repeats; this guards anyway
    seen.add(cursor);
    const ev = JSON.parse(msg.data);
    events.push(ev);
    let kind = ev.event_type, text = "";
    try {
      reduce(state, ev);
      [kind, text] = summarize(state, ev);
    } catch (e) { // an event this page does not understand still shows in the timeline
      console.error("event", cursor, ev.event_type, e);
    }
    const sub = ev.payload && ev.payload.demand_id && ev.payload.demand_id !== demandId;
    timeline.append(h("li", { "data-cursor": cursor, "data-type": ev.event_type, class: sub ? "sub" : null },
      h("span", { class: "t" }, clock(ev.timestamp)), h("span", {}, h("span", { class: "kind" }, kind), text)));
    if (timeline.scrollHeight - timeline.scrollTop - timeline.clientHeight < 120) timeline.scrollTop = timeline.scrollHeight;
    render();
  };
  const listeners = {};
  for (const t of EVENT_TYPES) listeners[t] = onEvent;
  cleanup = followStream("/api/v1/events/negotiations/" + encodeURIComponent(demandId) + "/stream", listeners, 0, async () => {
    try { await api("/api/v1/demands/" + encodeURIComponent(demandId)); return false; } // there: a passing error, retry
    catch (e) { showBanner(e.status === 404 ? "没有这个协商：" + demandId : describe(e)); return e.status === 404; }
  });
  render();
}

function rootChannel(s) { return s.channels[s.demandChannel[s.root]]; }

function renderHead(el, s) {
  const root = rootChannel(s);
  const status = root ? (root.completed ? root.status : root.status) : (s.failure ? "failed" : "processing");
  fill(el,
    h("div", { class: "row" }, h("h1", { style: "margin:0" }, s.demand ? s.demand.raw_input : "加载中……"),
      h("span", { id: "status" }, badge(root && root.completed ? root.status : status, root && root.completed ? label(root.status) : (s.failure ? "失败" : label(status))))),
    s.fork ? h("p", { class: "row fork-note" }, h("span", { class: "small" }, "假设分支：分叉自 ", h("a", { href: "#/n/" + s.fork.forked_from }, s.fork.forked_from),
      " @" + s.fork.at + "，改变：" + changeText(s.fork.change, (id) => s.names[id] || id)),
    h("a", { class: "button", id: "fork-link", href: "#/fork/" + encodeURIComponent(s.root) }, "与原协商对比")) : null,
    s.understanding ? h("p", { class: "muted" }, "理解：", s.understanding.surface_demand,
      s.understanding.capability_tags ? h("span", { class: "tags", style: "display:inline-flex;margin-left:.5rem" }, s.understanding.capability_tags.map((t) => badge("tag", t))) : null) : null,
    root ? h("p", { class: "round", id: "round" }, root.round ? "第 " + root.round + " / " + (root.maxRounds || "?") + " 轮"
      : "收集回应中，第 1 轮尚未开始（最多 " + (root.maxRounds || "?") + " 轮）") : null,
    s.failure ? outcomeCard({ kind: "failed", reason: s.failure.reason, code: s.failure.error_code, suggestion: s.failure.suggestion }, s) : null);
}

function renderTree(s) {
  const root = rootChannel(s);
  if (!root && s.rejection) return [rejectionCard(s)];
  if (!root) return [h("section", { class: "card muted" }, s.failure ? "没有创建协商频道。" : "等待协调者理解需求、挑选候选人……")];
  return channelView(s, root, true);
}

// channelView renders one channel; its sub-negotiations are nested under
// the gap each one fills.
function channelView(s, ch, isRoot) {
  const who = (id) => s.names[id] || id;
  const out = [];
  if (ch.outcome) out.push(outcomeCard(ch.outcome, s));
  if (ch.merged) out.push(mergedCard(s, ch.merged));
  const latest = ch.proposals[ch.proposals.length - 1];
  if (latest) out.push(proposalCard(s, latest, ch));
  const fbVersion = latest ? latest.proposal.version : 0;
  const fb = ch.feedback[fbVersion] || {};
  if (latest) {
    out.push(h("section", { class: "card", id: isRoot ? "feedback" : null },
      h("h2", {}, "反馈（方案 v" + fbVersion + "）"),
      Object.keys(fb).length ? h("div", { class: "tablewrap" }, h("table", {},
        h("tbody", {}, Object.values(fb).map((f) => h("tr", {},
          h("td", {}, who(f.agent_id)), h("td", {}, badge(f.feedback_type)),
          h("td", {}, f.actor === "system" ? h("span", { class: "muted" }, "超时未答，按接受计") : [f.reasoning, f.adjustment_request ? h("div", { class: "small muted" }, "请求：" + f.adjustment_request) : null])))))) :
        h("p", { class: "muted" }, "等待参与者反馈……")));
  }
  out.push(h("section", { class: "card", id: isRoot ? "candidates" : null },
    h("h2", {}, "候选人与回应 ", h("span", { class: "muted small" }, ch.offerOrder.length + " / " + ch.candidates.length)),
    h("div", { class: "tablewrap" }, h("table", {}, h("tbody", {}, ch.candidates.map((c) => {
      const o = ch.offers[c.agent_id];
      return h("tr", { "data-agent": c.agent_id },
        h("td", {}, h("a", { href: "#/agents/" + c.agent_id }, c.display_name || c.agent_id),
          c.relevance_score ? h("div", { class: "small muted" }, "匹配 " + c.relevance_score) : null),
        h("td", { class: "small" }, c.reason),
        h("td", {}, o ? [badge(o.decision), o.contribution ? h("div", { class: "small" }, o.contribution) : null,
          (o.conditions || []).length ? h("div", { class: "small muted" }, "条件：" + o.conditions.join("；")) : null,
          o.decline_reason ? h("div", { class: "small muted" }, o.decline_reason) : null] : h("span", { class: "muted small" }, "等待回应")));
    }))))));
  if (ch.gaps.length || ch.subnets.length) {
    out.push(h("section", { class: "card", id: isRoot ? "gaps" : null }, h("h2", {}, "缺口与子协商"),
      ch.gaps.map((g) => {
        const sn = ch.subnets.find((x) => x.gap_type === g.gap_type);
        const sub = sn && s.channels[sn.sub_channel_id];
        return h("div", { class: "gap" },
          h("div", {}, h("b", {}, g.gap_type), " ", h("span", { class: "muted small" }, "重要度 " + g.importance + " · " + g.reason)),
          g.description ? h("div", { class: "small" }, g.description) : null,
          sn ? h("div", { class: "sub-negotiation", "data-sub-channel": sn.sub_channel_id },
            h("div", { class: "small" }, "子协商 ", sn.sub_channel_id, " ", sub ? badge(sub.completed ? sub.status : "processing", sub.completed ? label(sub.status) : "进行中 · 第 " + sub.round + " 轮") : badge("processing", "启动中")),
            sub ? channelView(s, sub, false) : null) : h("div", { class: "small muted" }, "未开启子协商"));
      })));
  }
  return out;
}

function proposalCard(s, entry, ch) {
  const p = entry.proposal;
  const who = (a) => a.display_name || s.names[a.agent_id] || a.agent_id;
  const adj = p.adjustment_summary;
  return h("section", { class: "card", "data-proposal-version": p.version },
    h("div", { class: "row" }, h("h2", { style: "margin:0" }, "方案 v" + p.version), p.type === "compromise" ? badge("warn", "妥协方案") : null,
      h("span", { class: "muted small" }, "第 " + entry.round + " 轮")),
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

function outcomeCard(o, s) {
  const who = (id) => s.names[id] || id;
  const title = { finalized: "协商达成", force_finalized: "强制定稿（已到最后一轮）", failed: "协商失败" }[o.kind] || label(o.kind);
  return h("section", { class: "card outcome " + o.kind, id: "outcome", "data-outcome": o.kind },
    h("h2", {}, title, o.rounds ? h("span", { class: "muted small" }, "  共 " + o.rounds + " 轮") : null),
    o.kind === "failed" ? h("p", {}, (o.code ? "[" + o.code + "] " : "") + label(o.reason), o.suggestion ? h("div", { class: "small" }, "建议：" + o.suggestion) : null) : null,
    o.confirmed ? h("p", {}, "确认参与：", o.confirmed.map(who).join("、") || "无") : null,
    o.optional ? h("p", {}, "可选参与（仍在协商）：", o.optional.map(who).join("、") || "无") : null,
    o.participants ? h("p", {}, "参与者：", o.participants.map(who).join("、")) : null,
    o.proposal && o.proposal.type === "compromise" ? h("p", { class: "small muted" }, "妥协方案：" + o.proposal.summary) : null);
}

// rejectionCard explains why a demand was not negotiated and lets the user
// answer its questions: the answer starts a new demand linked to it.
function rejectionCard(s) {
  const r = s.rejection;
  const text = h("textarea", { id: "clarify-input", maxlength: 2000, placeholder: "补充说明：要做什么、需要哪些角色和人数、地点和时间" });
  const status = h("p", { class: "small" });
  const send = h("button", { type: "button", id: "clarify-submit", onclick: async () => {
    send.disabled = true;
    try {
      const out = await api("/api/v1/demands/" + s.root + "/clarify", { method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ text: text.value }) });
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
// what its sub-negotiations added, each marked with where it came from.
function mergedCard(s, p) {
  const who = (a) => a.display_name || s.names[a.agent_id] || a.agent_id;
  return h("section", { class: "card", id: "merged-plan" },
    h("h2", {}, "合并方案 ", h("span", { class: "muted small" }, p.assignments.length + " 项分工")),
    h("div", { class: "tablewrap" }, h("table", { class: "assignments" },
      h("thead", {}, h("tr", {}, h("th", {}, "角色"), h("th", {}, "Agent"), h("th", {}, "来自"))),
      h("tbody", {}, (p.assignments || []).map((a) => h("tr", { "data-sub-channel": a.sub_channel_id || "" },
        h("td", {}, a.role), h("td", {}, h("a", { href: "#/agents/" + a.agent_id }, who(a))),
        h("td", { class: "small muted" }, a.sub_channel_id ? "子协商 " + a.sub_channel_id : "主协商")))))),
    (p.gaps || []).length ? h("p", { class: "small" }, "仍缺：" + p.gaps.join("、")) : null);
}

// setupReplay puts a slider over the stored events: moving it shows the
// root channel as it was at that event, folded by the API (time travel).
function setupReplay(el, s, events) {
  const root = rootChannel(s);
  const idx = events.map((e, i) => ({ e, i })).filter((x) => x.e.stream_id === "channel-" + root.id);
  if (!idx.length) return;
  const out = h("div", { id: "tt-state" });
  const pos = h("div", { class: "small muted", id: "tt-position" });
  const slider = h("input", { type: "range", id: "replay-slider", min: 0, max: idx.length - 1, value: idx.length - 1, step: 1,
    "aria-label": "回放位置", "data-types": idx.map((x) => x.e.event_type).join(" ") });
  let seq = 0;
  const show = async () => {
    const mine = ++seq;
    const ev = idx[Number(slider.value)].e;
    pos.textContent = "第 " + (Number(slider.value) + 1) + " / " + idx.length + " 个频道事件 · " + clock(ev.timestamp) + " · " + summarize(s, ev).join("：");
    try {
      const st = await api("/api/v1/channels/" + encodeURIComponent(root.id) + "/state?at=" + ev.cursor);
      if (mine !== seq) return;
      const p = st.proposal;
      fill(out,
        h("p", {}, badge(st.status), " 第 " + st.round + " / " + st.max_rounds + " 轮 · 回应 " + Object.keys(st.offers || {}).length + " 份"),
        p ? h("div", {}, h("b", { id: "tt-version", "data-version": p.version }, "方案 v" + p.version), "：", p.summary,
          h("ul", {}, (p.assignments || []).map((a) => h("li", {}, a.role + " — " + (a.display_name || s.names[a.agent_id] || a.agent_id))))) :
          h("p", { class: "muted", id: "tt-version", "data-version": 0 }, "此时还没有方案"));
    } catch (e) {
      if (mine === seq) fill(out, h("p", { class: "error" }, describe(e)));
    }
  };
  slider.addEventListener("input", show);
  const whatIf = whatIfForm(s, () => idx[Number(slider.value)].e);
  slider.addEventListener("input", whatIf.update);
  fill(el, h("h2", {}, "回放"), h("p", { class: "small muted" }, "拖动滑块，查看协商在任一事件时的状态（由 API 从事件重放得出）。"), slider, pos, out, whatIf.el);
  el.hidden = false;
  show();
}

// invitedAgents lists the agents the negotiation tree invited (every
// channel's candidates, once each), those of the final plan first.
function invitedAgents(s) {
  const root = rootChannel(s);
  const plan = root && (root.merged || (root.outcome && root.outcome.proposal));
  const inPlan = new Set(((plan && plan.assignments) || []).map((a) => a.agent_id));
  const seen = new Map();
  for (const ch of Object.values(s.channels)) {
    for (const c of ch.candidates) {
      if (!seen.has(c.agent_id)) seen.set(c.agent_id, { id: c.agent_id, name: c.display_name || s.names[c.agent_id] || c.agent_id, inPlan: inPlan.has(c.agent_id) });
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
function whatIfForm(s, current) {
  const type = h("select", { id: "whatif-type" }, h("option", { value: "none" }, "不做改变（重放）"),
    h("option", { value: "remove_agent" }, "去掉一位 Agent"));
  const agent = h("select", { id: "whatif-agent" }, invitedAgents(s).map((a) =>
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
      const out = await api("/api/v1/negotiations/" + encodeURIComponent(s.root) + "/forks", { method: "POST",
        headers: { "Content-Type": "application/json" }, body: JSON.stringify({ at: Number(form.dataset.at), change }) });
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
    at.textContent = "从这个事件之后分叉：" + summarize(s, ev).join("：") + "（游标 " + ev.cursor + "）";
    err.textContent = "";
  };
  const open = h("button", { type: "button", class: "ghost", id: "whatif-open", onclick: () => { update(); form.hidden = !form.hidden; } }, "假设……");
  update();
  return { el: h("div", { class: "whatif-wrap" }, open, form), update };
}

// ---------- compare: two negotiations side by side ----------

// comparePage shows two negotiations side by side (issue 15), from path (a
// compare endpoint): the plan's diff above, each branch below; it refreshes
// every 2 s until both have ended.
function comparePage(path, titles) {
  const box = h("div", { id: "compare", "data-final": "false" }, h("p", { class: "card muted" }, "加载中……"));
  app.append(box);
  let timer = 0, stopped = false;
  cleanup = () => { stopped = true; clearTimeout(timer); };
  const load = async () => {
    try {
      const c = await api(path);
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
}

// branchFinal: a side of a comparison has ended and its scores are final.
const branchFinal = (b) => b.quality.final && b.status !== "processing";

// renderCompare fills the compare page with a comparison.
function renderCompare(box, c, titles, final) {
  const names = {};
  for (const b of [c.left, c.right]) for (const a of (b.plan && b.plan.assignments) || []) names[a.agent_id] = a.display_name || a.agent_id;
  for (const a of [...c.plan_diff.added, ...c.plan_diff.removed]) names[a.agent_id] = a.display_name || names[a.agent_id] || a.agent_id;
  const who = (id) => names[id] || id;
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
  const term = (a, f) => (Array.isArray(a[f]) ? a[f].join("、") : typeof a[f] === "boolean" ? (a[f] ? "是" : "否") : a[f]) || "—";
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
      h("span", { class: "wf-grow" }), h("a", { class: "small open-negotiation", href: "#/n/" + encodeURIComponent(b.demand_id) }, "打开协商 " + b.demand_id)),
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

// ---------- history ----------

function historyPage() {
  const status = h("select", { id: "filter-status" }, h("option", { value: "" }, "全部状态"),
    ["processing", "completed", "failed"].map((v) => h("option", { value: v }, label(v))));
  const user = h("input", { id: "filter-user", placeholder: "用户 ID", size: 14 });
  const body = h("div", {});
  const more = h("button", { class: "ghost", hidden: true }, "更多");
  // Two ticked demands are compared: the first ticked on the left. A third
  // tick drops the oldest.
  let picked = [];
  const compare = h("button", { type: "button", id: "compare-selected", disabled: true,
    onclick: () => { if (picked.length === 2) location.hash = "#/compare/" + picked.map(encodeURIComponent).join("/"); } }, "对比所选");
  const pickNote = h("span", { class: "muted small", id: "compare-note" });
  const select = {
    checked: (id) => picked.includes(id),
    toggle: (id, on) => {
      picked = picked.filter((x) => x !== id);
      if (on) picked.push(id);
      if (picked.length > 2) picked = picked.slice(-2);
      body.querySelectorAll("input.compare-pick").forEach((c) => { c.checked = picked.includes(c.dataset.demand); });
      compare.disabled = picked.length !== 2;
      pickNote.textContent = picked.length === 2 ? "" : "勾选两个协商进行对比（已选 " + picked.length + " 个）";
    },
  };
  select.toggle("", false);
  let cursor = 0;
  let rows = [];
  const load = async (reset) => {
    if (reset) { cursor = 0; rows = []; }
    const q = new URLSearchParams({ limit: 30 });
    if (status.value) q.set("status", status.value);
    if (user.value.trim()) q.set("user_id", user.value.trim());
    if (cursor) q.set("cursor", cursor);
    try {
      const out = await api("/api/v1/demands?" + q);
      rows = rows.concat(out.demands);
      cursor = out.next_cursor || 0;
      more.hidden = !cursor;
      fill(body, demandTable(rows, select));
    } catch (e) {
      fill(body, h("p", { class: "error" }, describe(e)));
    }
  };
  status.addEventListener("change", () => load(true));
  user.addEventListener("change", () => load(true));
  more.addEventListener("click", () => load(false));
  app.append(h("section", { class: "card" }, h("h1", {}, "历史协商"),
    h("div", { class: "row", style: "margin-bottom:.6rem" }, status, user, h("span", { class: "wf-grow" }), pickNote, compare), body, more));
  load(true);
}

// ---------- agents ----------

function agentsPage() {
  const q = h("input", { id: "agent-q", placeholder: "姓名、简介或 ID", size: 16 });
  const tag = h("input", { id: "agent-tag", placeholder: "标签", size: 10 });
  const city = h("input", { id: "agent-city", placeholder: "城市", size: 8 });
  const grid = h("div", { class: "agents-grid", id: "agents" });
  const count = h("span", { class: "muted small", id: "agent-count" });
  const load = async () => {
    const params = new URLSearchParams({ limit: 500 });
    if (q.value.trim()) params.set("q", q.value.trim());
    if (tag.value.trim()) params.set("tag", tag.value.trim());
    if (city.value.trim()) params.set("location", city.value.trim());
    try {
      const out = await api("/api/v1/agents?" + params);
      count.textContent = out.agents.length + " 位";
      fill(grid, ...out.agents.map((a) => h("div", { class: "card agent", "data-agent": a.agent_id },
        h("div", { class: "row" }, h("a", { href: "#/agents/" + a.agent_id }, h("b", {}, a.profile.user_name)),
          badge(a.mode === "external" ? "warn" : "tag", label(a.mode)), presenceBadge(a), a.active ? null : badge("bad", "已停用")),
        h("div", { class: "small muted" }, a.profile.location + " · " + a.agent_id),
        h("div", { class: "tags" }, (a.profile.tags || []).map((t) => badge("tag", t))),
        h("div", { class: "small" }, "受邀 " + a.stats.invitations + " · 参与 " + (a.stats.offers_participate + a.stats.offers_conditional) + " · 入选最终方案 " + a.stats.final_participations))));
    } catch (e) {
      fill(grid, h("p", { class: "error" }, describe(e)));
    }
  };
  for (const el of [q, tag, city]) el.addEventListener("change", load);
  app.append(h("section", { class: "card" }, h("h1", {}, "Agent 目录 ", count), h("div", { class: "row" }, q, tag, city)), grid);
  load();
}

// presenceBadge says whether an external agent is online (towow.agent.online
// since its last towow.agent.offline); twins have no presence.
function presenceBadge(a) {
  if (a.mode !== "external") return null;
  const since = a.online ? a.last_online_at : a.last_offline_at;
  const b = a.online ? badge("ok", "在线") : badge("muted", a.last_online_at ? "离线" : "未联系过");
  b.classList.add("presence");
  b.dataset.online = String(!!a.online);
  if (since) b.title = (a.online ? "上线于 " : "离线于 ") + new Date(since).toLocaleString();
  return b;
}

async function agentPage(id) {
  const box = h("div", {}, h("p", { class: "muted" }, "加载中……"));
  app.append(box);
  try {
    const [a, hist] = await Promise.all([api("/api/v1/agents/" + encodeURIComponent(id)),
      api("/api/v1/agents/" + encodeURIComponent(id) + "/history?limit=50")]);
    const p = a.profile;
    const st = a.stats;
    fill(box,
      h("section", { class: "card" },
        h("div", { class: "row" }, h("h1", { style: "margin:0" }, p.user_name), badge(a.mode === "external" ? "warn" : "tag", label(a.mode)),
          presenceBadge(a), a.active ? badge("ok", "活跃") : badge("bad", "已停用")),
        h("p", { class: "muted" }, p.location + " · " + a.agent_id + (p.availability ? " · " + p.availability : "")),
        h("div", { class: "tags" }, (p.tags || []).map((t) => badge("tag", t))),
        h("p", {}, p.profile_summary),
        Object.keys(p.capabilities || {}).length ? h("dl", { class: "kv" }, Object.entries(p.capabilities).map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])) : null,
        (p.interests || []).length ? h("p", { class: "small muted" }, "兴趣：" + p.interests.join("、")) : null),
      h("section", { class: "card" }, h("h2", {}, "参与统计"),
        [["受邀", st.invitations], ["参与", st.offers_participate], ["有条件", st.offers_conditional], ["拒绝", st.offers_decline],
          ["接受", st.feedback_accept], ["协商", st.feedback_negotiate], ["退出", st.feedback_withdraw], ["入选最终方案", st.final_participations]]
          .map(([k, v]) => h("span", { class: "stat" }, h("b", {}, v), k))),
      h("section", { class: "card" }, h("h2", {}, "协商历史"),
        hist.participations.length ? h("div", { class: "tablewrap" }, h("table", { id: "agent-history" }, h("tbody", {}, hist.participations.map((x) => h("tr", {},
          h("td", { class: "small" }, fmtTime(x.invited_at)),
          h("td", {}, h("a", { href: "#/n/" + x.root_demand_id }, x.demand || x.demand_id), x.depth ? h("div", { class: "small muted" }, "子协商") : null),
          h("td", {}, badge(x.status)),
          h("td", {}, x.offer ? badge(x.offer.decision) : h("span", { class: "muted small" }, "未回应")),
          h("td", {}, x.feedback.map((f) => badge(f.feedback_type, "v" + f.proposal_version + " " + label(f.feedback_type)))),
          h("td", {}, x.in_final ? badge("ok", "入选") : ""))))))
          : h("p", { class: "muted" }, "还没有参与过协商。")));
  } catch (e) {
    fill(box, h("p", { class: "error card" }, describe(e)));
  }
}

// ---------- operations ----------

function opsPage() {
  const box = h("div", { id: "ops" }, h("p", { class: "muted" }, "加载中……"));
  app.append(h("section", { class: "card" }, h("h1", {}, "运行状态"), box), riverUICard());
  const load = async () => {
    try {
      const st = await api("/api/v1/status");
      fill(box,
        h("h2", {}, "LLM"),
        h("p", {}, "提供方 ", h("b", { id: "llm-provider" }, st.llm.provider), st.llm.provider === "builtin" ? h("span", { class: "muted small" }, "（离线模拟，不是语言模型）") : null,
          " · 熔断器 ", badge(st.llm.breaker === "closed" ? "ok" : "open", label(st.llm.breaker))),
        h("h2", {}, "River 任务"),
        h("div", {}, Object.entries(st.river_jobs).sort().map(([k, v]) => h("span", { class: "stat" }, h("b", {}, v), k))),
        h("h2", {}, "读模型延迟（落后日志的事件数）"),
        h("div", {}, Object.entries(st.projection_lag).sort().map(([k, v]) => h("span", { class: "stat" }, h("b", {}, v), k))),
        h("p", { class: "small muted" }, "日志位置 " + st.head + " · 每轮最多 " + st.rules.max_rounds + " 轮 · 版本 " + st.version));
    } catch (e) {
      fill(box, h("p", { class: "error" }, describe(e)));
    }
  };
  load();
  const t = setInterval(load, 2000);
  cleanup = () => clearInterval(t);
}

// riverUICard links to River UI (/riverui/, River's job dashboard), which
// needs the admin token. A page the browser opens cannot carry an
// Authorization header, so the token is sent once, as a header, to POST
// /riverui/session, which answers with an HttpOnly cookie scoped to
// /riverui (derived from the token, not the token): this page never stores
// the token, and the cookie opens nothing but River UI.
function riverUICard() {
  const token = h("input", { type: "password", id: "riverui-token", autocomplete: "off", size: 28, maxlength: 512,
    placeholder: "管理员令牌 TOWOW_ADMIN_TOKEN", "aria-label": "管理员令牌" });
  const err = h("div", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", id: "riverui-login" }, "登录并打开 River UI");
  const form = h("form", {
    class: "row",
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      submit.disabled = true;
      try {
        await api("/riverui/session", { method: "POST", headers: { Authorization: "Bearer " + token.value.trim() } });
        token.value = "";
        location.assign("/riverui/"); // a new tab opened after an await would be a blocked popup
      } catch (ex) {
        err.textContent = describe(ex);
      } finally {
        submit.disabled = false;
      }
    },
  }, token, submit);
  return h("section", { class: "card", id: "riverui" },
    h("h2", {}, "River 任务面板"),
    h("p", { class: "small muted" }, "River UI 列出每个协商步骤（River 任务）的状态、参数与错误，可重试或取消。它需要管理员令牌：令牌只发送一次，换成仅对 /riverui 有效的会话 Cookie（12 小时）。"),
    form, err,
    h("p", { class: "small" }, h("a", { id: "riverui-link", href: "/riverui/", target: "_blank", rel: "noopener" }, "打开 River UI"),
      h("span", { class: "muted" }, "（已登录时）")));
}

route();
