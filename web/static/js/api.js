// The console's access to the API: JSON requests, their problem+json
// errors, and the banner that says when the server cannot be reached.
import { fill, h } from "./dom.js";

// signedOut tells (its "signed-out" event) that the API answered 401 to a
// request sent with the console's session: it ended, or there is none.
// auth.js listens and shows the sign-in view.
export const signedOut = new EventTarget();

// ApiError carries the problem+json of a refused request, and how many
// seconds to wait before asking again when the server said so (429, 503).
export class ApiError extends Error {
  constructor(status, problem, retryAfter) {
    super((problem && (problem.detail || problem.title)) || ("HTTP " + status));
    this.status = status;
    this.code = problem && problem.code;
    this.problem = problem || {}; // the whole body: a canvas conflict carries the current canvas
    this.retryAfter = retryAfter || 0;
  }
}

// describe says what went wrong, for people.
export function describe(err) {
  if (err instanceof ApiError) return (err.code ? "[" + err.code + "] " : "") + err.message;
  return "无法连接服务器：" + err.message;
}

// api requests path and returns its JSON body; a refusal throws ApiError.
// A 401 to a request with the session (no Authorization of its own, such
// as River UI's admin token) also says the session is gone (signedOut).
export async function api(path, opts) {
  const resp = await fetch(path, opts);
  const text = await resp.text();
  let body = null;
  try { body = text ? JSON.parse(text) : null; } catch (e) { body = null; }
  if (resp.status === 401 && !(opts && opts.headers && opts.headers.Authorization)) signedOut.dispatchEvent(new Event("signed-out"));
  if (!resp.ok) throw new ApiError(resp.status, body, Number(resp.headers.get("Retry-After")) || 0);
  return body;
}

// stillSignedIn asks the server whether the session goes on; when it
// ended, it says so (signedOut) and resolves to false.
export async function stillSignedIn() {
  const me = await api("/auth/me", { cache: "no-store" });
  if (!me.signed_in) signedOut.dispatchEvent(new Event("signed-out"));
  return me.signed_in;
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
