// The workflow page's side panel: a node's editor (its title in full, its
// state and result, the fields of its type), the form that adds a node,
// an edge's panel (delete it); and the connect mode's switch. On a narrow
// screen the panel stacks under the canvas: opening it brings it into
// view.
import { agentName } from "../agent_names.js";
import { badge, fill, h, randomHex } from "../dom.js";
import { freeSpot } from "./canvas.js";
import { NODE_STATUS } from "./node_shape.js";
import { changedFields, field, showRefusals, typedFields } from "./node_form.js";
import { addableTypes, answeredByUser, nodeTypeLabel } from "./node_types.js";

// byText says who produced a result: an agent (by name), a person, or nobody to name.
const byText = (by) => !by || by === "system" ? "" : by.startsWith("user:") ? by.slice(5) : agentName(by);

export function installPanel(wf) {
  const { ui } = wf;
  const narrow = matchMedia("(max-width: 960px)");
  const show = () => {
    ui.panel.hidden = false;
    wf.scheduleRender();
    if (narrow.matches) ui.panel.scrollIntoView({ block: "nearest" });
  };
  const header = (title, closeId, sub) => h("div", { class: "wf-panel-head" },
    h("div", { class: "wf-panel-title" }, h("h2", { id: "wf-panel-title" }, title), sub ? h("div", { class: "small muted" }, sub) : null),
    h("button", { type: "button", class: "ghost small", id: closeId, onclick: wf.closePanel }, "关闭"));

  wf.closePanel = () => { wf.selected = null; wf.panelRefresh = null; ui.panel.hidden = true; fill(ui.panel); wf.scheduleRender(); };

  // nodeState shows a node's status, attempts, result (marked 模拟 when a
  // twin answered in its person's place), error or why it was skipped;
  // orig is the form's starting values, to say when another tab renamed
  // the node meanwhile.
  const nodeState = (m, orig, baseVersion) => {
    const r = m.result;
    const by = r && byText(r.by);
    return [
      h("p", { class: "small" }, badge(m.status === "completed" ? "ok" : m.status === "failed" ? "bad" : m.status === "running" ? "processing" : "tag", NODE_STATUS[m.status] || m.status),
        r && r.simulated ? [" ", badge("warn", "模拟")] : null,
        answeredByUser(m.type) ? " · 审批人 " + (m.approver || wf.c.user_id) : "",
        m.attempt ? " · 第 " + m.attempt + " 次尝试" : "", " · 编辑基于 v" + baseVersion,
        m.title !== orig.title ? h("span", { class: "warn-text" }, " · 已被他人改为「" + m.title + "」") : null),
      r && r.summary ? h("div", { class: "small wf-result" + (r.simulated ? " simulated" : ""), "data-simulated": String(!!r.simulated) },
        h("b", {}, r.simulated ? "模拟结果：" : "结果："), r.summary,
        r.simulated ? h("div", { class: "wf-sim-note" }, "这是模拟：数字分身替" + (by || "负责人") + "给出的回答，本人没有确认，不代表事情已经办成。")
          : by ? h("div", { class: "muted" }, "由 " + by + " 完成") : null) : null,
      m.error ? h("p", { class: "small error" }, "错误：" + m.error) : null,
      m.reason ? h("p", { class: "small muted" }, "跳过原因：" + m.reason) : null];
  };

  wf.openNode = (nid) => {
    const n = wf.nodeById(nid);
    if (!n) return;
    wf.selected = { node: nid };
    const baseVersion = wf.c.version; // the version this edit is based on
    const orig = { title: n.title || "", description: n.description || "", role: n.role || "", due: n.due || "" };
    const inputs = {
      title: h("input", { id: "wf-edit-title", value: orig.title, maxlength: 200 }),
      description: h("textarea", { id: "wf-edit-description", maxlength: 2000 }, orig.description),
      role: h("input", { id: "wf-edit-role", value: orig.role, maxlength: 200 }),
      due: h("input", { id: "wf-edit-due", value: orig.due, maxlength: 100 }),
    };
    const typed = typedFields(wf, n, "wf-edit");
    const labels = Object.assign({ title: field("标题", inputs.title), description: field("说明", inputs.description),
      role: field("角色", inputs.role), due: field("截止", inputs.due) }, typed.labels);
    const save = h("button", { type: "submit", id: "wf-edit-save" }, "保存");
    const del = h("button", { type: "button", id: "wf-node-delete", class: "danger", onclick: async () => {
      if (await wf.send([{ type: "node_deleted", node_id: nid }])) wf.closePanel();
    } }, "删除步骤");
    const state = h("div", { id: "wf-node-state" });
    const title = h("span", {}, n.title || "（无标题）");
    // panelRefresh keeps the title, status and locks current without touching what is typed.
    wf.panelRefresh = () => {
      const m = wf.nodeById(nid);
      if (!m) return;
      if (title.textContent !== m.title) title.textContent = m.title;
      const locked = wf.structuralLocked();
      for (const el of [...Object.values(inputs), ...Object.values(typed.inputs), save, del]) el.disabled = locked;
      ui.panel.querySelectorAll(".wf-body-row input, .wf-body-row button, #wf-edit-body-add").forEach((el) => { el.disabled = locked; });
      fill(state, nodeState(m, orig, baseVersion));
    };
    fill(ui.panel, header(title, "wf-panel-close", nodeTypeLabel(n.type)), state,
      h("form", { id: "wf-edit-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = changedFields(n, typed.read(), typed);
        for (const k of Object.keys(inputs)) if (inputs[k].value !== orig[k]) data[k] = inputs[k].value;
        if (!Object.keys(data).length) { wf.closePanel(); return; }
        save.disabled = true;
        const ok = await wf.send([{ type: "node_updated", node_id: nid, data }], baseVersion, (errs) => showRefusals(labels, errs));
        save.disabled = false;
        if (ok) wf.closePanel();
      } },
      labels.title, labels.description, Object.values(typed.labels), typed.labels.assignee_id.hidden && !orig.role ? null : labels.role, labels.due,
      h("div", { class: "row" }, save, del)));
    wf.panelRefresh();
    show();
  };

  wf.openEdge = (e) => {
    wf.selected = { edge: e };
    wf.panelRefresh = null;
    fill(ui.panel, header("依赖", "wf-panel-close"),
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
    const due = h("input", { id: "wf-new-due", maxlength: 100, placeholder: "例如：活动前一周" });
    const typed = typedFields(wf, { type: type.value }, "wf-new");
    const labels = Object.assign({ type: field("类型", type), title: field("标题", title), description: field("说明", description),
      due: field("截止", due) }, typed.labels);
    type.addEventListener("change", () => typed.refit(type.value));
    const save = h("button", { type: "submit", id: "wf-new-save" }, "添加");
    fill(ui.panel, header("添加步骤", "wf-panel-close"),
      h("form", { id: "wf-new-form", onsubmit: async (e) => {
        e.preventDefault();
        const data = Object.assign({ type: type.value, title: title.value.trim(), description: description.value.trim(), position: freeSpot(wf.c) },
          typed.read());
        if (due.value.trim()) data.due = due.value.trim();
        save.disabled = true;
        const ok = await wf.send([{ type: "node_added", node_id: "n-" + randomHex(), data }], null, (errs) => showRefusals(labels, errs));
        save.disabled = false;
        if (ok) wf.closePanel();
      } },
      labels.type, labels.title, labels.description, Object.values(typed.labels), labels.due,
      h("div", { class: "row" }, save)));
    show();
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
