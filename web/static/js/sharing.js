// Sharing a negotiation: its whole tree and the workflow its agreement
// became. The owner sees the collaborators with their roles, adds one by
// user id, changes a role and removes one; a collaborator sees who shares
// it with them and their role, and no controls. Over GET, PUT and DELETE
// /api/v1/negotiations/{demand_id}/collaborators[/{user_id}]; refusals
// are shown with their code.
import { api, describe } from "./api.js";
import { whoAmI } from "./auth.js";
import { fill, h } from "./dom.js";

// ROLES names the roles for people.
const ROLES = { viewer: "查看者", editor: "编辑者" };
const WHAT = { viewer: "可以查看协商和执行计划", editor: "可以查看协商，并编辑执行计划（画布、对话、决策）" };

const roleSelect = (value, attrs) => h("select", attrs,
  Object.entries(ROLES).map(([k, v]) => h("option", { value: k, selected: k === value }, v)));

// sharingPanel is the negotiation's sharing as a folding panel (demandId:
// any demand of the tree), read at once and again whenever it is opened.
export function sharingPanel(demandId) {
  const path = "/api/v1/negotiations/" + encodeURIComponent(demandId) + "/collaborators";
  const summary = h("summary", { id: "sharing-summary" }, "共享");
  const body = h("div", { class: "sharing-body" }, h("p", { class: "muted small" }, "加载中……"));
  const error = h("div", { class: "error", id: "sharing-error", role: "alert" });
  const panel = h("details", { class: "sharing", id: "sharing" }, summary, body, error);
  let me = null;

  // act sends a change of the sharing, then shows the sharing as it is now.
  const act = async (method, user, role, control) => {
    error.textContent = "";
    if (control) control.disabled = true;
    try {
      await api(path + "/" + encodeURIComponent(user), role
        ? { method, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ role }) } : { method });
      await load();
      return true;
    } catch (e) {
      error.textContent = describe(e);
      return false;
    } finally {
      if (control) control.disabled = false;
    }
  };

  // The owner's controls: the list (drawn again at each read) and the
  // form to add someone (made once: a read never takes what is typed).
  const list = h("ul", { id: "sharing-list", class: "sharing-list" });
  let ownerParts = null, listed = null;
  const ownerView = (out) => {
    const key = JSON.stringify(out.collaborators);
    if (key !== listed) fill(list, out.collaborators.length ? out.collaborators.map((c) => h("li", { "data-user": c.user_id, "data-role": c.role },
      h("span", { class: "share-user" }, c.user_id),
      roleSelect(c.role, { class: "share-role", "aria-label": c.user_id + " 的角色",
        onchange: (e) => act("PUT", c.user_id, e.target.value, e.target) }),
      h("button", { type: "button", class: "ghost small share-remove", onclick: (e) => act("DELETE", c.user_id, null, e.target) }, "移除")))
      : h("li", { class: "muted small" }, "还没有共享给任何人。"));
    listed = key; // the same list again is left as it is (a control under the pointer stays)
    if (ownerParts) return ownerParts;
    const user = h("input", { id: "share-user", maxlength: 128, size: 16, placeholder: "对方的用户 ID", autocomplete: "off", required: true });
    const role = roleSelect("viewer", { id: "share-role", "aria-label": "角色" });
    const add = h("button", { type: "submit", id: "share-add" }, "添加");
    ownerParts = [
      h("p", { class: "small muted" }, "你是所有者。查看者", WHAT.viewer, "；编辑者", WHAT.editor, "。"),
      list,
      h("form", { id: "share-form", class: "row", onsubmit: async (e) => {
        e.preventDefault();
        const id = user.value.trim();
        if (id && await act("PUT", id, role.value, add)) user.value = "";
      } }, user, role, add),
      h("p", { class: "small muted" }, "用户 ID 是对方登录后，鼠标停在页面右上角名字上时显示的 ID；你的是 ", h("code", {}, me.user_id), "。"),
    ];
    return ownerParts;
  };

  const collaboratorView = (out) => {
    const mine = out.collaborators.find((c) => c.user_id === me.user_id);
    if (!mine) return [h("p", { class: "small muted" }, "所有者：" + out.owner)];
    return [h("p", { class: "small", id: "shared-with-me", "data-role": mine.role },
      out.owner + " 与你共享了这个协商，你是" + ROLES[mine.role] + "：" + WHAT[mine.role] + "。")];
  };

  let loads = 0;
  async function load() {
    const seq = ++loads;
    const [out, who] = await Promise.all([api(path, { cache: "no-store" }), me || whoAmI()]);
    me = who;
    if (seq !== loads) return; // a later read (after a change, say) shows the sharing
    const owner = out.owner === me.user_id;
    const n = out.collaborators.length;
    const mine = out.collaborators.find((c) => c.user_id === me.user_id);
    summary.textContent = owner ? "共享" + (n ? "（" + n + " 人）" : "：仅自己可见")
      : mine ? "由 " + out.owner + " 共享给你（" + ROLES[mine.role] + "）" : "共享";
    panel.dataset.owner = String(owner);
    const parts = owner ? ownerView(out) : collaboratorView(out);
    if (body.firstChild !== parts[0]) fill(body, parts);
  }

  // (A negotiation that is not there, or not the person's, is the page's to say.)
  const refresh = () => load().catch((e) => { if (e.status === 404) panel.hidden = true; else error.textContent = describe(e); });
  panel.addEventListener("toggle", () => { if (panel.open) refresh(); }); // opened: as it is now
  refresh(); // the summary says who shares it even while the panel is folded
  return panel;
}
