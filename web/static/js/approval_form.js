// Answering an approval step: a comment box with 批准 and 拒绝, over POST
// /api/v1/workflows/{workflow_id}/nodes/{node_id}/approval. Used on the
// 待我审批 page and on the workflow's canvas.
import { describe, postJSON } from "./api.js";
import { h } from "./dom.js";
import { approvalsChanged } from "./inbox.js";

// approvalForm answers the approval nodeId of workflowId; onDone gets
// whether it was approved and the comment once the server recorded it.
export function approvalForm(workflowId, nodeId, onDone) {
  const comment = h("textarea", { class: "approval-comment", maxlength: 2000, rows: 2, placeholder: "意见（可选；拒绝时写明原因）", "aria-label": "审批意见" });
  const error = h("div", { class: "error approval-error", role: "alert" });
  const approve = h("button", { type: "button", class: "approve" }, "批准");
  const reject = h("button", { type: "button", class: "reject danger" }, "拒绝");
  const send = async (approved) => {
    error.textContent = "";
    approve.disabled = reject.disabled = true;
    try {
      const out = await postJSON("/api/v1/workflows/" + encodeURIComponent(workflowId) + "/nodes/" + encodeURIComponent(nodeId) + "/approval",
        { approved, comment: comment.value.trim() });
      approvalsChanged(out.cursor);
      onDone(approved, comment.value.trim());
    } catch (e) {
      error.textContent = describe(e);
      approve.disabled = reject.disabled = false;
    }
  };
  approve.addEventListener("click", () => send(true));
  reject.addEventListener("click", () => send(false));
  return h("div", { class: "approval-form" }, comment, h("div", { class: "row" }, approve, reject), error);
}

// answeredNote says how an approval was answered.
export const answeredNote = (approved, comment) => h("p", { class: "approval-done " + (approved ? "ok" : "bad") },
  (approved ? "已批准" : "已拒绝") + (comment ? "：" + comment : ""));
