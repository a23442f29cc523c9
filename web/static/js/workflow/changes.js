// The workflow page's writes: a batch of canvas changes (and what a
// conflict, a lock or a refusal of the Coordinator do), run and cancel.
// After a write the canvas is read again: the page shows what the server
// holds, not what it sent.
import { postJSON, describe } from "../api.js";
import { fill, h, randomHex } from "../dom.js";
import { normalizeCanvas } from "./canvas.js";
import { fieldOf } from "./node_form.js";
import { plainRefusal } from "./refusals.js";

export function installChanges(wf) {
  const { ui, id } = wf;
  const path = (what) => "/api/v1/workflows/" + encodeURIComponent(id) + "/" + what;
  // accepted bumps the canvas's version to a write's answer, so a next
  // write is based on it before the canvas is read again.
  const accepted = (out) => {
    if (typeof out.version === "number" && out.version > wf.c.version) wf.c.version = out.version;
    wf.refresh(out.cursor);
  };

  // send writes changes (based on baseVersion, by default the canvas's)
  // and reports whether they were accepted; a refusal that names fields
  // (422 errors[].location) is given to onRefused as [{field, message}],
  // for the form to show by its fields.
  wf.send = async (changes, baseVersion, onRefused) => {
    if (!wf.c) return false;
    ui.error.textContent = "";
    ui.error.title = "";
    delete ui.error.dataset.rule;
    try {
      const out = await postJSON(path("canvas/changes"), { client_id: wf.clientId,
        base_version: baseVersion == null ? wf.c.version : baseVersion, batch_id: "b-" + randomHex(), changes });
      accepted(out);
      if ((out.corrections || []).length) {
        wf.log("correction", "协调者修正了你的修改：" + out.corrections.map((x) => x.message || x.field).join("；"));
      }
      hideConflict();
      wf.scheduleRender();
      return true;
    } catch (e) {
      if (e.code === "TOWOW_CANVAS_CONFLICT") {
        showConflict(changes, e, baseVersion);
      } else if (e.code === "TOWOW_CANVAS_LOCKED") {
        ui.error.textContent = "执行中：结构由服务器决定，只能移动位置。";
        ui.error.title = describe(e);
        wf.log("locked", "修改被拒：工作流正在执行");
      } else if (e.status === 422 && ((e.problem && e.problem.errors) || []).length) {
        const rule = e.problem.rule || "";
        const refusals = e.problem.errors.map((x) => {
          const r = { field: fieldOf(x.location), original: x.message };
          return { ...r, message: plainRefusal(rule, r) };
        });
        const errs = [...new Set(refusals.map((x) => x.message))].join("；");
        ui.error.title = refusals.map((x) => x.original).join("; "); // the server's words, for support
        ui.error.textContent = (e.code === "TOWOW_DECISION_REJECTED" ? "协调者拒绝了这个修改：" : "服务器拒绝了这个修改：") + errs;
        wf.log("rejected", "修改被拒：" + errs);
        if (e.problem.rule) ui.error.dataset.rule = e.problem.rule; // for tests and support, not for reading
        if (onRefused) onRefused(refusals);
      } else {
        ui.error.textContent = describe(e);
      }
      await wf.reload();
      return false;
    }
  };

  // A conflict keeps the changes, to apply them again on the canvas the
  // refusal carries.
  let lastBatch = null;
  const showConflict = (changes, e, baseVersion) => {
    const p = e.problem || {};
    lastBatch = { changes, canvas: p.canvas || null };
    fill(ui.conflict,
      h("p", {}, h("b", {}, "修改冲突："), "你的修改基于 v" + (baseVersion == null ? wf.c.version : baseVersion) + "，但其他人已把执行计划改到了 v" +
        (p.version || (p.canvas && p.canvas.version) || "?") + "。你的修改没有保存。"),

      h("div", { class: "row" }, h("button", { type: "button", id: "wf-reapply", onclick: reapply }, "重新加载并重新应用"),
        h("button", { type: "button", class: "ghost", onclick: () => { hideConflict(); wf.reload(); } }, "放弃我的修改")));
    ui.conflict.hidden = false;
    wf.log("conflict", "冲突：其他人已修改（当前 v" + (p.version || "?") + "），你的修改未保存");
  };
  const hideConflict = () => { ui.conflict.hidden = true; fill(ui.conflict); };

  const reapply = async () => {
    if (!lastBatch) return;
    const { changes, canvas } = lastBatch;
    lastBatch = null;
    hideConflict();
    if (canvas && canvas.nodes) wf.snapshot(normalizeCanvas(canvas));
    if (!canvas || wf.c.cursor < canvas.cursor) await wf.reload();
    // A change to a node deleted meanwhile cannot be reapplied.
    const still = changes.filter((ch) => ch.type === "node_added" || !ch.node_id || wf.nodeById(ch.node_id));
    if (!still.length) { ui.error.textContent = "要修改的步骤已被删除，无法重新应用。"; return; }
    if (await wf.send(still, wf.c.version)) wf.closePanel();
  };

  // decide runs or cancels the workflow.
  const decide = async (type) => {
    ui.error.textContent = "";
    try {
      accepted(await postJSON(path("decisions"), { decision_type: type, base_version: wf.c.version, client_id: wf.clientId }));
    } catch (e) {
      const plain = e.code === "TOWOW_DECISION_REJECTED" ? plainRefusal((e.problem && e.problem.rule) || "", { field: "" }) : "";
      ui.error.textContent = plain ? (type === "execute_workflow" ? "不能运行：" : "不能取消：") + plain : describe(e);
      ui.error.title = describe(e);
      if (plain) wf.log("rejected", (type === "execute_workflow" ? "运行" : "取消") + "被拒：" + plain);
    }
  };
  ui.run.addEventListener("click", () => decide("execute_workflow"));
  ui.cancel.addEventListener("click", () => decide("cancel_workflow"));
}
