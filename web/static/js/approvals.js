// The 待我审批 page (#/approvals): the approval steps waiting for the
// signed-in person (GET /api/v1/approvals), each with its workflow's title
// (the list's workflow_title; read from the workflow when a server does
// not send it) and its step's title, answered here; read again when a
// notice arrives.
import { api, describe } from "./api.js";
import { answeredNote, approvalForm } from "./approval_form.js";
import { fill, h } from "./dom.js";
import { inboxEvents } from "./inbox.js";

export function approvalsPage(app) {
  const list = h("ul", { id: "approvals", class: "approvals" }, h("li", { class: "muted" }, "加载中……"));
  app.append(h("section", { class: "card" }, h("h1", {}, "待我审批"),
    h("p", { class: "muted small" }, "执行计划里等你批准的步骤。批准后这一步完成，执行继续；拒绝则这一步失败，执行计划随之失败。"), list));
  let closed = false;
  const titles = new Map(); // workflow id → its title
  const answered = new Map(); // "workflow node" → how it was answered here, kept while the page is open

  const item = (a) => {
    const key = a.workflow_id + " " + a.node.id;
    const done = answered.get(key); // {note, state} once answered here
    const li = h("li", { class: "card approval", "data-workflow": a.workflow_id, "data-node": a.node.id, "data-answered": done ? done.state : null },
      h("h2", { class: "approval-step" }, a.node.title),
      h("p", { class: "small" }, "执行计划：", h("a", { class: "approval-workflow", href: "#/w/" + encodeURIComponent(a.workflow_id) }, titles.get(a.workflow_id) || "（无标题）"),
        a.demand_id ? [" · ", h("a", { href: "#/n/" + encodeURIComponent(a.demand_id) }, "查看协商")] : null),
      a.node.description ? h("p", { class: "approval-description" }, a.node.description) : null,
      done ? done.note : approvalForm(a.workflow_id, a.node.id, (ok, comment) => {
        answered.set(key, { note: answeredNote(ok, comment), state: ok ? "approved" : "rejected", approval: a });
        li.replaceWith(item(a));
      }));
    return li;
  };

  let asked = 0;
  const load = async (min) => {
    const mine = ++asked;
    try {
      const out = await api("/api/v1/approvals" + (min ? "?min_cursor=" + min : ""), { cache: "no-store" });
      for (const a of out.approvals) if (a.workflow_title) titles.set(a.workflow_id, a.workflow_title);
      const missing = [...new Set(out.approvals.map((a) => a.workflow_id))].filter((id) => !titles.has(id));
      await Promise.all(missing.map((id) => api("/api/v1/workflows/" + encodeURIComponent(id))
        .then((w) => titles.set(id, w.title)).catch(() => {})));
      if (closed || mine !== asked) return;
      // The ones answered here stay, marked, until the page is left.
      const waiting = (a) => out.approvals.some((b) => b.workflow_id === a.workflow_id && b.node.id === a.node.id);
      const shown = out.approvals.concat([...answered.values()].map((d) => d.approval).filter((a) => !waiting(a)));
      fill(list, shown.length ? shown.map(item) : h("li", { class: "muted", id: "approvals-empty" }, "没有等你审批的步骤。"));
    } catch (e) {
      if (!closed) fill(list, h("li", { class: "error" }, describe(e)));
    }
  };
  const onNotice = (e) => { load(e.detail.cursor); };
  inboxEvents.addEventListener("notice", onNotice);
  load(0);
  return () => { closed = true; inboxEvents.removeEventListener("notice", onNotice); };
}
