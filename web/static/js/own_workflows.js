// A person's own workflows on the home page: start one without a
// negotiation (empty or from a template) and build it on its canvas or by
// talking to the assistant, and the list of their workflows, newest
// first.
import { api, describe, postJSON } from "./api.js";
import { badge, fill, fmtTime, h, label } from "./dom.js";

export function ownWorkflowsCard() {
  const list = h("div", { id: "own-workflows" }, h("p", { class: "muted" }, "加载中……"));
  const err = h("div", { class: "error", role: "alert" });
  const template = h("select", { id: "new-workflow-template", "aria-label": "模板" });
  const title = h("input", { id: "new-workflow-title", maxlength: 200, placeholder: "标题（可不填）" });
  const create = h("button", { id: "new-workflow", type: "submit" }, "新建执行计划");
  api("/api/v1/workflows/templates").then((out) => fill(template,
    (out.templates || []).map((t) => h("option", { value: t.key }, t.title)))).catch(() => {});
  api("/api/v1/workflows").then((out) => fill(list, workflowList(out.workflows || [])))
    .catch((e) => fill(list, h("p", { class: "error" }, describe(e))));
  const form = h("form", {
    class: "row", onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      create.disabled = true;
      try {
        const w = await postJSON("/api/v1/workflows", { template: template.value || undefined, title: title.value.trim() || undefined });
        location.hash = "#/w/" + w.workflow_id;
      } catch (ex) {
        err.textContent = describe(ex);
      } finally {
        create.disabled = false;
      }
    },
  }, template, title, create);
  return h("section", { class: "card", id: "own-workflows-card" }, h("h2", {}, "我的执行计划"),
    h("p", { class: "muted small" }, "不经协商，直接新建一个执行计划：在画布上添加步骤，或对助手说「创建一个 HTTP 节点……」「加一个审批步骤」。"),
    form, err, list);
}

// workflowList lists workflows: title (to the canvas), status, steps and
// when each was started; one from a negotiation links back to it.
function workflowList(workflows) {
  if (!workflows.length) return h("p", { class: "muted" }, "还没有执行计划。");
  return h("ul", { class: "plain own-workflow-list" }, workflows.slice(0, 10).map((w) => h("li", { "data-workflow": w.workflow_id },
    h("a", { href: "#/w/" + w.workflow_id }, w.title), " ", badge(w.status, label(w.status)),
    h("span", { class: "small muted" }, " · " + (w.nodes || []).length + " 步 · " + fmtTime(w.created_at)),
    w.demand_id ? [" · ", h("a", { class: "small", href: "#/n/" + w.demand_id }, "来自协商")] : null)));
}
