// The workflow page's approvals: each running approval step, with 批准 /
// 拒绝 and a comment box when the signed-in person may answer it (the
// server's list of the approvals waiting for them says so: GET
// /api/v1/approvals, read at least as far as the canvas shown), else who
// it waits for. Nothing shows while no approval runs or in the history.
import { api } from "../api.js";
import { answeredNote, approvalForm } from "../approval_form.js";
import { fill, h } from "../dom.js";
import { answeredByUser } from "./node_types.js";

export function installApprovals(wf) {
  const { ui } = wf;
  let shownKey = ""; // what the card shows: the running approvals and which are mine
  let mine = new Set(); // the running approvals of this workflow waiting for the signed-in person
  let askedAt = -1; // the canvas cursor the approvals were last asked at
  const answered = new Map(); // node id → its answer's note, until the node stops running

  let asks = 0;
  const ask = async (cursor) => {
    askedAt = cursor;
    const n = ++asks;
    let now = new Set(); // after a failure: no controls (the server would refuse an answer anyway)
    try {
      const out = await api("/api/v1/approvals?min_cursor=" + cursor, { cache: "no-store" });
      now = new Set(out.approvals.filter((a) => a.workflow_id === wf.id).map((a) => a.node.id));
    } catch (e) { /* as above */ }
    if (n !== asks || wf.closed) return; // a later ask answers for the newer canvas
    mine = now;
    show();
  };

  const show = () => {
    const c = wf.c;
    const running = c && wf.viewAt === 0 ? c.nodes.filter((n) => answeredByUser(n.type) && n.status === "running") : [];
    for (const id of answered.keys()) if (!running.some((n) => n.id === id)) answered.delete(id);
    const key = running.map((n) => n.id + (mine.has(n.id) ? "+" : "") + (answered.has(n.id) ? "!" : "")).join(",");
    if (key === shownKey) return; // a redraw keeps what is typed
    shownKey = key;
    ui.approvals.hidden = running.length === 0;
    fill(ui.approvals, h("h2", {}, "等待审批"), h("ul", { class: "wf-approvals" }, running.map((n) => {
      const approver = n.approver || c.user_id;
      return h("li", { "data-node": n.id, "data-mine": String(mine.has(n.id)) },
        h("div", { class: "approval-step" }, n.title),
        n.description ? h("p", { class: "small muted" }, n.description) : null,
        answered.get(n.id) || (mine.has(n.id) ? approvalForm(wf.id, n.id, (ok, comment) => {
          answered.set(n.id, answeredNote(ok, comment));
          show();
          wf.refresh(0);
        }) : h("p", { class: "small muted" }, "等待 " + approver + " 审批。")));
    })));
  };

  // approvalsRefresh runs on every render: a new canvas with an approval
  // running asks the server again whose approvals they are.
  wf.approvalsRefresh = () => {
    const c = wf.c;
    const running = c && c.nodes.some((n) => answeredByUser(n.type) && n.status === "running");
    if (running && c.cursor !== askedAt) ask(c.cursor);
    else show();
  };
}
