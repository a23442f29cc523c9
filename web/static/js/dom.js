// DOM helpers of the console. Every text that comes from the API (and so,
// often, from an LLM) is set as a text node, never parsed as HTML.

// h creates an element with attributes (on* are listeners) and children.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// fill replaces el's children, skipping null and false (replaceChildren
// would print them).
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c != null && c !== false)
    .map((c) => c instanceof Node ? c : document.createTextNode(String(c))));
}

// LABELS name the values of statuses, decisions and modes for people.
const LABELS = {
  participate: "参与", decline: "拒绝", conditional: "有条件参与", no_answer: "未能回答", llm_unavailable: "语言模型暂时无法回答",
  accept: "接受", negotiate: "协商", withdraw: "退出", reject: "反对",
  finalized: "已达成", force_finalized: "强制定稿", failed: "失败", completed: "已完成", processing: "进行中", rejected: "未受理",
  created: "已创建", broadcasting: "广播中", collecting: "收集回应", aggregating: "汇总方案",
  proposal_sent: "方案已发出", negotiating: "协商中", next_round: "进入下一轮", finalize: "定稿", fail: "失败", force_finalize: "强制定稿",
  draft: "草稿", running: "执行中", cancelled: "已取消",
  twin: "数字分身", external: "外部 Agent", closed: "正常", "half-open": "半开", open: "熔断",
};

// label names a value for people (the value itself when it has no name).
export const label = (k) => LABELS[k] || k || "";

export const badge = (value, text) => h("span", { class: "badge b-" + value }, text || label(value));
export const fmtTime = (ts) => ts ? new Date(ts).toLocaleString("zh-CN", { hour12: false }) : "";
export const clock = (ts) => ts ? new Date(ts).toLocaleTimeString("zh-CN", { hour12: false }) : "";

// ago says when something happened for people: 刚刚, N 分钟前, the time
// of day (HH:MM) today, else the date and time ("" when ts is absent).
export function ago(ts, now) {
  if (!ts) return "";
  const t = new Date(ts), n = now || new Date();
  const s = (n - t) / 1000;
  if (s < 60) return "刚刚";
  if (s < 3600) return Math.floor(s / 60) + " 分钟前";
  const hm = t.toLocaleTimeString("zh-CN", { hour: "2-digit", minute: "2-digit", hour12: false });
  if (t.toDateString() === n.toDateString()) return hm;
  return t.toLocaleDateString("zh-CN", { month: "numeric", day: "numeric" }) + " " + hm;
}

// pct writes a share as a percentage ("" when absent).
export const pct = (x) => (typeof x === "number" ? Math.round(x * 100) + "%" : "");

// randomHex draws a short random hex id part.
export function randomHex() {
  const b = new Uint8Array(6);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
