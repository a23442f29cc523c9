// The history page: the signed-in person's negotiations (the server lists
// no one else's), filtered by status, two of them ticked for a comparison.
import { api, describe } from "./api.js";
import { fill, h, label } from "./dom.js";
import { demandTable } from "./home.js";

export function historyPage(app) {
  const status = h("select", { id: "filter-status" }, h("option", { value: "" }, "全部状态"),
    ["processing", "completed", "failed"].map((v) => h("option", { value: v }, label(v))));
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
  more.addEventListener("click", () => load(false));
  app.append(h("section", { class: "card" }, h("h1", {}, "历史协商"),
    h("div", { class: "row", style: "margin-bottom:.6rem" }, status, h("span", { class: "wf-grow" }), pickNote, compare), body, more));
  load(true);
}
