// The fields of a node's form that depend on its type (GET
// /api/v1/workflows/node-types says which a type uses): a task's
// assignee (by name), an approval's approver, a wait's time, an http
// node's URL, method and body (key/value rows, values may reference
// earlier steps), the timeout of an attempt and how often an http node is
// tried. A refusal of the server (422, errors[].location ending in
// data.<field>) is shown under the field it names.
import { h } from "../dom.js";
import { agentName } from "../agent_names.js";
import { typeInfo, typeNeeds } from "./node_types.js";

const METHODS = ["POST", "GET", "PUT", "PATCH", "DELETE"];
// sendsBody: the methods whose request carries the node's body.
const sendsBody = (m) => m !== "GET" && m !== "DELETE";

// field wraps an input with its label and the place of its refusal.
export const field = (labelText, input, hint) => h("label", { class: "wf-field" }, h("span", {}, labelText), input,
  hint ? h("small", { class: "muted wf-hint" }, hint) : null, h("small", { class: "wf-field-error", role: "alert" }));

// durationText writes seconds for people (30 秒, 1 分钟, 24 小时, 7 天).
const durationText = (s) => s % 86400 === 0 ? s / 86400 + " 天" : s % 3600 === 0 ? s / 3600 + " 小时" : s % 60 === 0 ? s / 60 + " 分钟" : s + " 秒";

// localInput and fromLocal convert between RFC 3339 and a
// datetime-local input's value (the browser's time zone).
function localInput(ts) {
  if (!ts) return "";
  const d = new Date(ts), p = (n) => String(n).padStart(2, "0");
  return d.getFullYear() + "-" + p(d.getMonth() + 1) + "-" + p(d.getDate()) + "T" + p(d.getHours()) + ":" + p(d.getMinutes());
}
const fromLocal = (v) => (v ? new Date(v).toISOString() : "");

// bodyRows edits an http node's body: one row per key.
function bodyRows(prefix, body) {
  const list = h("div", { class: "wf-body-rows", id: prefix + "-body" });
  const row = (k, v) => {
    const li = h("div", { class: "row wf-body-row" },
      h("input", { class: "wf-body-key", value: k || "", placeholder: "键", "aria-label": "键", maxlength: 100 }),
      h("input", { class: "wf-body-value", value: v || "", placeholder: "值，可引用前面步骤：{{nodes.<步骤>.output.<键>}}", "aria-label": "值", maxlength: 2000 }),
      h("button", { type: "button", class: "ghost small wf-body-remove", "aria-label": "删除这一行", onclick: () => li.remove() }, "删除"));
    list.append(li);
  };
  for (const [k, v] of Object.entries(body || {})) row(k, v);
  const add = h("button", { type: "button", class: "ghost small", id: prefix + "-body-add", onclick: () => row("", "") }, "添加一行");
  const read = () => {
    const out = {};
    for (const li of list.querySelectorAll(".wf-body-row")) {
      const k = li.querySelector(".wf-body-key").value.trim();
      if (k) out[k] = li.querySelector(".wf-body-value").value;
    }
    return out;
  };
  return { el: h("div", {}, list, add), read };
}

// typedFields makes the typed fields of a node of type (node: its values
// now, none for a new one; prefix: the inputs' id prefix, wf-new or
// wf-edit). It returns the fields' elements (by field name), refit(type)
// that shows those the type uses, and read() the values of those shown
// ({} entries for the ones left empty are left out).
export function typedFields(wf, node, prefix) {
  const n = node || {};
  const names = [...new Set([...(wf.c.participants || []), n.assignee_id].filter(Boolean))];
  const input = (name, attrs) => h("input", Object.assign({ id: prefix + "-" + name }, attrs));
  const inputs = {
    assignee_id: h("select", { id: prefix + "-assignee" }, h("option", { value: "" }, "（无）"),
      names.map((p) => h("option", { value: p, selected: p === n.assignee_id }, agentName(p)))),
    approver: input("approver", { value: n.approver || "", maxlength: 128, autocomplete: "off", placeholder: "留空：协商的所有者（" + (wf.c.user_id || "") + "）" }),
    wait_until: input("wait-until", { type: "datetime-local", value: localInput(n.wait_until) }),
    url: input("url", { value: n.url || "", maxlength: 2000, inputmode: "url", placeholder: "https://…" }),
    method: h("select", { id: prefix + "-method" }, METHODS.map((m) => h("option", { value: m, selected: m === (n.method || "POST") }, m))),
    timeout_seconds: input("timeout", { type: "number", min: 1, step: 1, value: n.timeout_seconds || "" }),
    max_attempts: input("attempts", { type: "number", min: 1, max: 10, step: 1, value: n.max_attempts || "" }),
  };
  const body = bodyRows(prefix, n.body);
  const labels = {
    assignee_id: field("负责人", inputs.assignee_id),
    approver: field("审批人（用户 ID）", inputs.approver),
    wait_until: field("等到", inputs.wait_until),
    url: field("URL", inputs.url, "主机须在服务器的允许列表中"),
    method: field("方法", inputs.method),
    body: field("请求体", body.el, "以 JSON 发送；GET 和 DELETE 不带请求体"),
    timeout_seconds: field("超时（秒）", inputs.timeout_seconds),
    max_attempts: field("最多尝试次数", inputs.max_attempts),
  };
  let type = n.type;
  // uses says whether a node of the type has the field.
  const uses = (f) => {
    const info = typeInfo(type), needs = typeNeeds(type);
    if (f === "body") return needs.includes("url") && sendsBody(inputs.method.value);
    if (f === "timeout_seconds") return !!info.start && info.start !== "completed";
    if (f === "max_attempts") return !!info.retried;
    return needs.includes(f) || (f === "assignee_id" && !!n.assignee_id);
  };
  const refit = (t) => {
    if (t) type = t;
    const info = typeInfo(type);
    inputs.timeout_seconds.placeholder = info.default_timeout_seconds ? "默认 " + durationText(info.default_timeout_seconds) : "";
    inputs.max_attempts.placeholder = info.retried ? "默认 3 次" : "";
    for (const [f, el] of Object.entries(labels)) el.hidden = !uses(f);
  };
  inputs.method.addEventListener("change", () => refit());
  const read = () => {
    const out = {};
    for (const f of Object.keys(labels)) {
      if (!uses(f)) continue;
      if (f === "body") { const b = body.read(); if (Object.keys(b).length) out.body = b; continue; }
      const v = inputs[f].value.trim();
      if (f === "wait_until") { if (v) out.wait_until = fromLocal(v); continue; }
      if (f === "timeout_seconds" || f === "max_attempts") { if (v) out[f] = Number(v); continue; }
      if (v) out[f] = v;
    }
    return out;
  };
  refit();
  return { labels, inputs, refit, read, usesURL: () => typeNeeds(type).includes("url") };
}

// changedFields are the typed fields whose value read() differs from the
// node's (a field emptied: its zero value, the type's default; a body the
// chosen method does not send: none).
export function changedFields(node, now, fields) {
  const data = {};
  for (const [f, el] of Object.entries(fields.labels)) {
    // A body the method does not send is taken off the node.
    if (el.hidden && f === "body" && Object.keys(node.body || {}).length && fields.usesURL()) data.body = {};
    if (el.hidden) continue;
    const before = f === "method" ? node.method || "POST" : node[f] == null ? "" : node[f];
    const after = now[f] == null ? (f === "timeout_seconds" || f === "max_attempts" ? 0 : f === "body" ? {} : "") : now[f];
    const same = f === "body" ? JSON.stringify(before || {}) === JSON.stringify(after)
      : f === "wait_until" ? (before ? new Date(before).getTime() : 0) === (after ? new Date(after).getTime() : 0)
      : String(before || "") === String(after || "");
    if (!same && !(f === "wait_until" && !after)) data[f] = after;
  }
  return data;
}

// fieldOf is the field a refusal's location names (body.changes[0].data.url
// → url), "" when it names none.
export const fieldOf = (location) => ((location || "").match(/\.data\.([a-z_]+)/) || [])[1] || "";

// showRefusals puts each refusal under its field (labels: field name →
// its label) and returns those no field took.
export function showRefusals(labels, errors) {
  for (const el of Object.values(labels)) {
    const slot = el.querySelector(".wf-field-error");
    if (slot) slot.textContent = "";
    el.classList.remove("refused");
  }
  const rest = [];
  for (const e of errors || []) {
    const el = labels[e.field];
    const slot = el && !el.hidden && el.querySelector(".wf-field-error");
    if (!slot) { rest.push(e); continue; }
    slot.textContent = (slot.textContent ? slot.textContent + "；" : "") + e.message;
    el.classList.add("refused");
  }
  return rest;
}
