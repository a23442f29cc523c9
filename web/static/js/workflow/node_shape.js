// A node of the canvas as it is drawn: its title wrapped over up to three
// lines (never cut to a few characters: the full title is on hover, in
// the node's SVG <title>, and in the editor), a line of what it is (type,
// who does it, when) with its status, and a 模拟 mark when a twin answered
// in its person's place. Its height follows its title.
import { answeredByUser, nodeTypeLabel } from "./node_types.js";

export const NODE_W = 220;
const PAD_X = 12;
const TEXT_W = NODE_W - 2 * PAD_X;
// The node's text sizes (CSS px at zoom 1): the canvas is never shown
// smaller than READABLE_ZOOM unless a person zooms out, so the smallest
// text stays at 12 px or more.
export const TITLE = { size: 16, weight: 600, line: 20, lines: 3 };
export const META = { size: 14, weight: 400 };
export const READABLE_ZOOM = Math.ceil(12 / META.size * 100) / 100;
const TOP = 24; // the first title line's baseline
const META_GAP = 22; // from the last title line's baseline to the meta line's
const BOTTOM = 12; // below the meta line's baseline

export const NODE_STATUS = { pending: "待执行", running: "执行中", completed: "已完成", failed: "失败", skipped: "已跳过" };

let ctx2d = null, fontFamily = "";
const family = () => fontFamily || (fontFamily = getComputedStyle(document.documentElement).fontFamily || "sans-serif");
const fontOf = (spec) => spec.weight + " " + spec.size + "px " + family();
function measure(text, font) {
  if (!ctx2d) ctx2d = document.createElement("canvas").getContext("2d");
  ctx2d.font = font;
  return ctx2d.measureText(text).width;
}

// ellipsize cuts s to fit width with an ellipsis.
function ellipsize(s, font, width) {
  if (measure(s, font) <= width) return s;
  while (s && measure(s + "…", font) > width) s = s.slice(0, -1);
  return s + "…";
}

// wrapText breaks text into lines of at most width px in font, at most
// maxLines (the last one ellipsized when the text goes on): a run of
// Latin letters and digits stays whole unless it is longer than a line,
// Chinese breaks between any two characters.
export function wrapText(text, spec, width, maxLines) {
  const font = fontOf(spec);
  const tokens = (text || "").match(/[\x21-\x7e]+|\s+|[^\s\x21-\x7e]/gu) || [];
  const lines = [];
  let cur = "";
  for (let tok of tokens) {
    if (/^\s+$/.test(tok)) { if (cur) cur += " "; continue; }
    if (measure(cur + tok, font) <= width) { cur += tok; continue; }
    if (cur.trim()) lines.push(cur.trimEnd());
    cur = "";
    while (tok.length > 1 && measure(tok, font) > width) {
      let i = tok.length - 1;
      while (i > 1 && measure(tok.slice(0, i), font) > width) i--;
      lines.push(tok.slice(0, i));
      tok = tok.slice(i);
    }
    cur = tok;
  }
  if (cur.trim()) lines.push(cur.trimEnd());
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = ellipsize(kept[maxLines - 1] + lines[maxLines], font, width);
  return kept;
}

// hostOf is a URL's host (the URL itself when it does not parse).
const hostOf = (u) => { try { return new URL(u.replace(/\{\{[^}]*\}\}/g, "x")).host; } catch (e) { return u; } };

// whenText writes a time for people (month, day, hour and minute).
export const whenText = (ts) => new Date(ts).toLocaleString("zh-CN", { month: "numeric", day: "numeric", hour: "2-digit", minute: "2-digit", hour12: false });

// metaOf says what the node is: its type and who does it or what it waits
// for, and its due date.
export function metaOf(n, view) {
  const who = n.assignee_id ? view.nameOf(n.assignee_id)
    : answeredByUser(n.type) ? "审批人 " + (n.approver || view.owner || "所有者")
    : n.wait_until ? "等到 " + whenText(n.wait_until)
    : n.url ? (n.method || "POST") + " " + hostOf(n.url) : "";
  return [nodeTypeLabel(n.type), who, n.due].filter(Boolean).join(" · ");
}

// layoutNode is how the node is drawn: its title's lines, its meta line,
// its status text, whether it is marked 模拟, its hover text and height.
export function layoutNode(n, view) {
  const st = n.status || "pending";
  const simulated = !!(n.result && n.result.simulated);
  const title = wrapText(n.title || "（无标题）", TITLE, TEXT_W, TITLE.lines);
  const status = (NODE_STATUS[st] || st) + (n.attempt > 1 ? " ×" + n.attempt : "");
  const metaWidth = TEXT_W - measure(status, fontOf(META)) - 10;
  const meta = ellipsize(metaOf(n, view), fontOf(META), metaWidth);
  const hover = [n.title, metaOf(n, view), n.description, (NODE_STATUS[st] || st) + (simulated ? "（模拟：由数字分身代答，并非本人完成）" : "")]
    .filter(Boolean).join("\n");
  const metaY = TOP + TITLE.line * (title.length - 1) + META_GAP;
  return { st, simulated, title, meta, status, hover, metaY, height: metaY + BOTTOM };
}

// NODE_PARTS are the node's children, in the order the canvas makes
// them; a simulated node has one more, its 模拟 mark (simMark).
export const NODE_PARTS = ["title", "rect", "text.wf-node-title", "text.wf-node-sub", "text.wf-node-status"];

// fillNode draws layout l into the node's <g> (made by the canvas with
// NODE_PARTS), touching only what changed; simMark makes the 模拟 mark.
export function fillNode(g, l, simMark) {
  const [hover, rect, title, meta, status, sim] = g.children;
  const set = (el, k, v) => { if (el.getAttribute(k) !== String(v)) el.setAttribute(k, String(v)); };
  if (hover.textContent !== l.hover) hover.textContent = l.hover;
  set(rect, "height", l.height);
  const lines = l.title.join("\n");
  if (title.dataset.lines !== lines) {
    title.dataset.lines = lines;
    title.replaceChildren(...l.title.map((line, i) => {
      const t = document.createElementNS("http://www.w3.org/2000/svg", "tspan");
      t.setAttribute("x", PAD_X);
      t.setAttribute("y", TOP + TITLE.line * i);
      t.textContent = line;
      return t;
    }));
  }
  set(meta, "y", l.metaY);
  set(status, "y", l.metaY);
  if (meta.textContent !== l.meta) meta.textContent = l.meta;
  if (status.textContent !== l.status) status.textContent = l.status;
  if (l.simulated && !sim) g.append(simMark());
  if (!l.simulated && sim) sim.remove();
}
