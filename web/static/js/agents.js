// The agents: the directory, and one agent's profile, statistics and
// negotiation history.
import { api, describe } from "./api.js";
import { badge, fill, fmtTime, h, label } from "./dom.js";

export function agentsPage(app) {
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

export async function agentPage(app, id) {
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
