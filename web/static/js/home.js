// The home page: submit a demand, see the recent negotiations.
import { api, describe, postJSON } from "./api.js";
import { badge, fill, fmtTime, h, label } from "./dom.js";
import { ownWorkflowsCard } from "./own_workflows.js";
import { qualityCells } from "./quality.js";

const EXAMPLES = [
  "我想在北京办一场AI主题聚会，需要场地和嘉宾",
  "杭州的创业团队需要一位UI设计师和一位后端开发，做一个小程序",
  "上海周末想组织一次亲子读书会，需要场地和会讲故事的志愿者",
  "We need a venue and two speakers in Beijing for a small AI meetup next month",
];

export function homePage(app) {
  const text = h("textarea", { id: "demand-input", maxlength: 10000, placeholder: "用中文或英文写下你的需求……" });
  const err = h("div", { class: "error", role: "alert" });
  const submit = h("button", { id: "submit-demand", type: "submit" }, "提交需求");
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      submit.disabled = true;
      try {
        // No user_id: the server knows who is signed in.
        const out = await postJSON("/api/v1/demand/submit", { raw_input: text.value });
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
  h("div", { class: "row" }, submit),
  err);
  app.append(h("section", { class: "card" }, form), recentCard(), ownWorkflowsCard());
}

function recentCard() {
  const list = h("div", {}, h("p", { class: "muted" }, "加载中……"));
  api("/api/v1/demands?limit=8").then((out) => fill(list, demandTable(out.demands)))
    .catch((e) => fill(list, h("p", { class: "error" }, describe(e))));
  return h("section", { class: "card" }, h("h2", {}, "我最近的协商"), list);
}

// participantCount is how many agents a demand's plan assigns, as the
// server counts them (participants: the merged plan's agents, once each,
// as a comparison shows them); a server that does not list them: its
// final proposal's agents, once each.
function participantCount(d) {
  if (Array.isArray(d.participants)) return d.participants.length;
  const fp = d.final_proposal;
  return fp && fp.assignments ? new Set(fp.assignments.map((a) => a.agent_id)).size : 0;
}

// demandTable lists demands; a fork is marked 分叉 with a link to the
// negotiation it was forked from. With select (the history page's), each
// row starts with a checkbox: select.checked(id) says whether it is
// ticked, select.toggle(id, on) is called when it is (un)ticked.
export function demandTable(demands, select) {
  if (!demands.length) return h("p", { class: "muted" }, "还没有协商。");
  const quality = qualityCells(demands);
  return h("div", { class: "tablewrap" }, h("table", { id: "demand-table" },
    h("thead", {}, h("tr", {}, select ? h("th", {}, "对比") : null, h("th", {}, "时间"), h("th", {}, "需求"), h("th", {}, "状态"), h("th", {}, "轮次"), h("th", {}, "参与者"), h("th", {}, "质量"))),
    h("tbody", {}, demands.map((d) => {
      const n = participantCount(d);
      return h("tr", { "data-demand": d.demand_id, "data-forked-from": d.forked_from || null },
        select ? h("td", { class: "pick" }, h("input", { type: "checkbox", class: "compare-pick", "data-demand": d.demand_id, "aria-label": "选择以对比",
          checked: select.checked(d.demand_id), onchange: (e) => select.toggle(d.demand_id, e.target.checked) })) : null,
        h("td", { class: "small when" }, fmtTime(d.created_at)),
        h("td", { class: "demand" }, d.forked_from ? [badge("fork", "分叉"), " "] : null, h("a", { href: "#/n/" + d.demand_id }, d.raw_input),
          d.forked_from ? h("div", { class: "small fork-of" }, h("a", { class: "fork-original", href: "#/n/" + encodeURIComponent(d.forked_from) }, "原协商"),
            " · ", h("a", { href: "#/fork/" + encodeURIComponent(d.demand_id) }, "与原协商对比")) : null),
        h("td", { class: "status" }, badge(d.outcome && d.status !== "processing" ? d.outcome.split(":")[0] : d.status,
          d.status === "processing" ? "进行中" : label(d.outcome) || label(d.status))),
        h("td", { class: "rounds", "data-label": "轮次" }, d.rounds_taken || ""),
        h("td", { class: "participants-count", "data-count": n, "data-label": "参与者" }, n || ""),
        quality[d.demand_id]);
    }))));
}
