// The workflow page's side panel: edit a node (or see a read-only one's
// state), add a node, delete an edge; and the connect mode's switch.
import { badge, fill, h, randomHex } from "../dom.js";
import { freeSpot, NODE_STATUS } from "./canvas.js";
import { addableTypes, answeredByUser, nodeTypeLabel, typeNeeds } from "./node_types.js";

const field = (labelText, input) => h("label", { class: "wf-field" }, h("span", {}, labelText), input);

export function installPanel(wf) {
  const { ui } = wf;
  const assigneeSelect = (value, fid) => h("select", { id: fid },
    h("option", { value: "" }, "（无）"),
    [...new Set([...(wf.c.participants || []), value].filter(Boolean))].map((p) => h("option", { value: p, selected: p === value }, p)));
  const show = () => { ui.panel.hidden = false; wf.scheduleRender(); };
  const header = (title, closeId) => h("div", { class: "row" }, h("h2", { style: "margin:0" }, title), h("span", { class: "wf-grow" }),
    h("button", { type: "button", class: "ghost small", id: closeId, onclick: wf.closePanel }, "关闭"));

  wf.closePanel = () => { wf.selected = null; wf.panelRefresh = null; ui.panel.hidden = true; fill(ui.panel); wf.scheduleRender(); };

  // nodeState shows a node's status, attempts, result, error or why it
  // was skipped; orig is the form's starting values, to say when another
  // tab renamed the node meanwhile.
  const nodeState = (m, orig, baseVersion) => [
    h("p", { class: "small" }, badge(m.status === "completed" ? "ok" : m.status === "failed" ? "bad" : m.status === "running" ? "processing" : "tag", NODE_STATUS[m.status] || m.status),
      " ", nodeTypeLabel(m.type), answeredByUser(m.type) ? " · 审批人 " + (m.approver || wf.c.user_id) : "",
      m.attempt ? " · 第 " + m.attempt + " 次尝试" : "", " · 编辑基于 v" + baseVersion,
      m.title !== orig.title ? h("span", { class: "warn-text" }, " · 已被他人改为「" + m.title + "」") : null),
    m.result && m.result.summary ? h("p", { class: "small wf-result" }, "结果：" + m.result.summary) : null,
    m.error ? h("p", { class: "small error" }, "错误：" + m.error) : null,
    m.reason ? h("p", { class: "small muted" }, "跳过原因：" + m.reason) : null];

  wf.openNode = (nid) => {
    const n = wf.nodeById(nid);
    if (!n) return;
    wf.selected = { node: nid };
    const baseVersion = wf.c.version; // the version this edit is based on
    const orig = { title: n.title || "", description: n.description || "", assignee_id: n.assignee_id || "", role: n.role || "", due: n.due || "" };
    const inputs = {
      title: h("input", { id: "wf-edit-title", value: orig.title, maxlength: 200 }),
      description: h("textarea", { id: "wf-edit-description", maxlength: 2000 }, orig.description),
      assignee_id: assigneeSelect(orig.assignee_id, "wf-edit-assignee"),
      role: h("input", { id: "wf-edit-role", value: orig.role, maxlength: 200 }),
      due: h("input", { id: "wf-edit-due", value: orig.due, maxlength: 100 }),
    };
    const save = h("button", { type: "submit", id: "wf-edit-save" }, "保存");
    const del = h("button", { type: "button", id: "wf-node-delete", class: "danger", onclick: async () => {
      if (await wf.send([{ type: "node_deleted", node_id: nid }])) wf.closePanel();
    } }, "删除步骤");
    const state = h("div", { id: "wf-node-state" });
    // panelRefresh keeps the status and locks current without touching what is typed.
    wf.panelRefresh = () => {
      const m = wf.nodeById(nid);
      if (!m) return;
      for (const el of [...Object.values(inputs), save, del]) el.disabled = wf.structuralLocked();
      fill(state, nodeState(m, orig, baseVersion));
    };
    fill(ui.panel, header(["步骤 ", h("code", {}, nid)], "wf-panel-close"), state,
      h("form", { id: "wf-edit-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = {};
        for (const k of Object.keys(inputs)) if (inputs[k].value !== orig[k]) data[k] = inputs[k].value;
        if (!Object.keys(data).length) { wf.closePanel(); return; }
        save.disabled = true;
        const ok = await wf.send([{ type: "node_updated", node_id: nid, data }], baseVersion);
        save.disabled = false;
        if (ok) wf.closePanel();
      } },
      field("标题", inputs.title), field("说明", inputs.description),
      Object.assign(field("负责人", inputs.assignee_id), { hidden: !orig.assignee_id && !typeNeeds(n.type).includes("assignee_id") }),
      field("角色", inputs.role), field("截止", inputs.due),
      h("div", { class: "row" }, save, del)));
    wf.panelRefresh();
    show();
  };

  wf.openEdge = (e) => {
    wf.selected = { edge: e };
    wf.panelRefresh = null;
    fill(ui.panel, header("依赖"),
      h("p", {}, wf.titleOf(e.from) + " → " + wf.titleOf(e.to)),
      h("p", { class: "small muted" }, "“" + wf.titleOf(e.to) + "”要等“" + wf.titleOf(e.from) + "”完成后才开始。"),
      h("button", { type: "button", id: "wf-edge-delete", class: "danger", disabled: wf.structuralLocked(), onclick: async () => {
        if (await wf.send([{ type: "edge_deleted", edge: { from: e.from, to: e.to } }])) wf.closePanel();
      } }, "删除这条依赖"));
    show();
  };

  const openAdd = () => {
    if (wf.structuralLocked()) return;
    wf.selected = null;
    wf.panelRefresh = null;
    const type = h("select", { id: "wf-new-type" }, addableTypes().map(([k, v]) => h("option", { value: k }, v)));
    const title = h("input", { id: "wf-new-title", maxlength: 200, required: true });
    const description = h("textarea", { id: "wf-new-description", maxlength: 2000 });
    const assignee = assigneeSelect("", "wf-new-assignee");
    const due = h("input", { id: "wf-new-due", maxlength: 100, placeholder: "例如：活动前一周" });
    // The fields of the chosen type: an assignee only for the type that
    // has one; who answers a step that waits for a person's answer.
    const assigneeField = field("负责人", assignee);
    const answerNote = h("p", { class: "small muted", id: "wf-new-approver" }, "运行到这一步时，由协商的所有者（" + (wf.c.user_id || "") + "）批准或拒绝。");
    const fit = () => {
      assigneeField.hidden = !typeNeeds(type.value).includes("assignee_id");
      answerNote.hidden = !answeredByUser(type.value);
    };
    type.addEventListener("change", fit);
    fit();
    fill(ui.panel, header("添加步骤"),
      h("form", { id: "wf-new-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = { type: type.value, title: title.value.trim(), description: description.value.trim(), position: freeSpot(wf.c) };
        if (assignee.value && !assigneeField.hidden) data.assignee_id = assignee.value;
        if (due.value.trim()) data.due = due.value.trim();
        if (await wf.send([{ type: "node_added", node_id: "n-" + randomHex(), data }])) wf.closePanel();
      } },
      field("类型", type), answerNote, field("标题", title), field("说明", description), assigneeField, field("截止", due),
      h("div", { class: "row" }, h("button", { type: "submit", id: "wf-new-save" }, "添加"))));
    ui.panel.hidden = false;
    title.focus();
  };
  ui.add.addEventListener("click", openAdd);

  wf.setConnect = (on) => {
    wf.connectMode = on;
    wf.connectFrom = null;
    ui.connect.setAttribute("aria-pressed", String(on));
    ui.connect.classList.toggle("active", on);
    wf.scheduleRender();
  };
  ui.connect.addEventListener("click", () => wf.setConnect(!wf.connectMode));
}
