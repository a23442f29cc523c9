// The console's access to the API: JSON requests, their problem+json
// errors, and the banner that says when the server cannot be reached.
import { fill, h } from "./dom.js";

// ApiError carries the problem+json of a refused request.
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || ("HTTP " + status));
    this.status = status;
    this.code = problem && problem.code;
    this.problem = problem || {}; // the whole body: a canvas conflict carries the current canvas
  }
}

// describe says what went wrong, for people.
export function describe(err) {
  if (err instanceof ApiError) return (err.code ? "[" + err.code + "] " : "") + err.message;
  return "无法连接服务器：" + err.message;
}

// api requests path and returns its JSON body; a refusal throws ApiError.
export async function api(path, opts) {
  const resp = await fetch(path, opts);
  const text = await resp.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
  if (!resp.ok) throw new ApiError(resp.status, body);
  return body;
}

// postJSON sends body as JSON with method POST.
export const postJSON = (path, body) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

const banner = document.getElementById("banner");

// showBanner shows a message over the page ("" hides it); kind styles it.
export function showBanner(msg, kind) {
  banner.textContent = msg;
  banner.className = "banner" + (kind ? " " + kind : "");
  banner.hidden = !msg;
}

// showLost says the connection is lost for good, with a retry control.
export function showLost(text, retry) {
  banner.className = "banner lost";
  fill(banner, text + " ", h("button", { type: "button", id: "reconnect", onclick: retry }, "重试"));
  banner.hidden = false;
}
