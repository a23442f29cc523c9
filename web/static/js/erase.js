// The erase page: a person deletes their own data. Their words are stored
// sealed with keys of their own; DELETE /api/v1/users/{id}/data destroys
// the keys, so everywhere their words were the console shows 「[已删除]」.
// What happened (outcomes, counts) stays. It cannot be undone, so the page
// says what goes and asks once more before it does it.
import { api, describe } from "./api.js";
import { whoAmI } from "./auth.js";
import { fill, h } from "./dom.js";

export function erasePage(app) {
  const card = h("section", { class: "card", id: "erase" });
  fill(app, card);
  const note = h("p", { class: "error", id: "erase-error", hidden: true });
  const yes = h("button", { type: "button", id: "erase-confirm", class: "danger" }, "永久删除我的数据");
  const no = h("a", { href: "#/", class: "button ghost", id: "erase-cancel" }, "取消");
  fill(card,
    h("h2", {}, "删除我的数据"),
    h("p", {}, "删除后，你提交过的需求、补充说明、对话和留言，以及协商中为你写下的方案、分工和回复，都会显示为「[已删除]」。任何人都无法再看到原文，之后做的备份里也没有。"),
    h("p", {}, "协商的结果、人数和评分会保留；你的账号也还能继续使用，新的需求不受影响。"),
    h("p", { class: "muted" }, "这一步无法撤销。"),
    note, h("div", { class: "actions" }, yes, " ", no));
  yes.onclick = async () => {
    yes.disabled = true;
    note.hidden = true;
    try {
      const me = await whoAmI();
      const done = await api("/api/v1/users/" + encodeURIComponent(me.user_id) + "/data", { method: "DELETE" });
      fill(card,
        h("h2", {}, "你的数据已删除"),
        h("p", { id: "erase-done" }, done.subjects > 1
          ? "你的 " + (done.subjects - 1) + " 个协商和执行计划里的文字，从此都显示为「[已删除]」。"
          : "你还没有提交过需求；以后写下的内容不受影响。"),
        h("div", { class: "actions" }, h("a", { href: "#/history", class: "button", id: "erase-history" }, "查看我的协商")));
    } catch (e) {
      note.textContent = describe(e);
      note.hidden = false;
      yes.disabled = false;
    }
  };
}
