// The header's inbox for the signed-in person: the notices badge, with a
// dropdown of the newest notices (GET /api/v1/notices, then live over
// GET /api/v1/notices/stream), each linking to its workflow or
// negotiation and saying when it was posted (刚刚, N 分钟前, HH:MM); and
// the count on 待我审批 (GET /api/v1/approvals), read again when a notice
// arrives or an approval is answered. The badge counts
// the notices newer than the last ones the person saw (opening the list
// sees them; remembered in this browser). The inbox's stream is a quiet
// one: the browser's EventSource reconnects by itself (Last-Event-ID), and
// a refused stream is asked again later; the page's banner is left to the
// page's own streams.
import { api } from "./api.js";
import { ago, fill, fmtTime, h } from "./dom.js";

const SHOWN = 20; // notices in the dropdown

// inboxEvents tells the pages what the inbox heard: "notice" (detail: a
// notice as the API lists it) and "approvals" (detail: a cursor after
// which the waiting approvals changed).
export const inboxEvents = new EventTarget();

// approvalsChanged says an approval was answered at cursor (the count and
// the pages read the approvals again, at least that far).
export const approvalsChanged = (cursor) => inboxEvents.dispatchEvent(new CustomEvent("approvals", { detail: cursor || 0 }));

// noticeLink is where a notice leads: its workflow, else its negotiation.
const noticeLink = (n) => n.workflow_id ? "#/w/" + encodeURIComponent(n.workflow_id)
  : n.demand_id ? "#/n/" + encodeURIComponent(n.demand_id) : null;

// startInbox shows the inbox of who (GET /auth/me's answer) in the header
// and returns what stops it (on sign-out).
export function startInbox(who) {
  const box = document.getElementById("inbox");
  const approvalsCount = document.getElementById("approvals-count");
  const seenKey = "towow.notices.seen:" + who.user_id;
  let notices = []; // newest first
  let seen = Number(localStorage.getItem(seenKey)) || 0;
  let stopped = false;

  const count = h("span", { id: "notices-count", class: "count", hidden: true });
  const button = h("button", { type: "button", id: "notices-button", class: "ghost small", "aria-expanded": "false", "aria-haspopup": "true" }, "通知", count);
  const list = h("ul", { id: "notices-list" });
  const menu = h("div", { id: "notices-menu", class: "notices-menu", hidden: true }, h("div", { class: "small muted notices-head" }, "最新通知"), list);
  fill(box, button, menu);
  box.hidden = false;

  const render = () => {
    const unread = notices.filter((n) => n.cursor > seen).length;
    count.textContent = unread > 99 ? "99+" : String(unread);
    count.hidden = unread === 0;
    button.title = unread ? unread + " 条新通知" : "没有新通知";
    fill(list, notices.length ? notices.slice(0, SHOWN).map((n) => {
      const href = noticeLink(n);
      return h("li", { "data-kind": n.kind, "data-cursor": n.cursor, class: n.cursor > seen ? "unread" : null },
        href ? h("a", { href, onclick: () => close() }, n.title) : h("span", {}, n.title),
        n.posted_at ? h("time", { class: "notice-time", datetime: n.posted_at, title: fmtTime(n.posted_at) }, ago(n.posted_at)) : null);
    }) : h("li", { class: "muted small" }, "还没有通知。"));
  };
  const open = () => {
    menu.hidden = false;
    button.setAttribute("aria-expanded", "true");
    render(); // unread ones stay marked while the list is open
    seen = Math.max(seen, ...notices.map((n) => n.cursor));
    localStorage.setItem(seenKey, String(seen));
    count.hidden = true;
  };
  const close = () => {
    if (menu.hidden) return;
    menu.hidden = true;
    button.setAttribute("aria-expanded", "false");
    render();
  };
  button.addEventListener("click", () => (menu.hidden ? open() : close()));
  const outside = (e) => { if (!box.contains(e.target)) close(); };
  const escape = (e) => { if (e.key === "Escape") close(); };
  document.addEventListener("click", outside);
  document.addEventListener("keydown", escape);

  // The approvals waiting: their count on the nav link (min: a cursor the
  // read model must have reached).
  let asked = 0;
  const countApprovals = async (min) => {
    const mine = ++asked;
    try {
      const out = await api("/api/v1/approvals" + (min ? "?min_cursor=" + min : ""), { cache: "no-store" });
      if (stopped || mine !== asked) return;
      approvalsCount.textContent = String(out.approvals.length);
      approvalsCount.hidden = out.approvals.length === 0;
    } catch (e) { /* the count stays as it was */ }
  };
  const onApprovals = (e) => countApprovals(e.detail);
  inboxEvents.addEventListener("approvals", onApprovals);

  let es = null, retry = null, last = 0;
  const onNotice = (msg) => {
    const cursor = Number(msg.lastEventId) || 0;
    if (cursor <= last) return;
    last = cursor;
    const frame = JSON.parse(msg.data);
    const n = Object.assign({}, frame.payload, { cursor, posted_at: frame.timestamp });
    notices.unshift(n);
    if (!menu.hidden) { seen = n.cursor; localStorage.setItem(seenKey, String(seen)); }
    render();
    inboxEvents.dispatchEvent(new CustomEvent("notice", { detail: n }));
    countApprovals(n.cursor);
  };
  const follow = () => {
    if (stopped) return;
    es = new EventSource("/api/v1/notices/stream" + (last ? "?last_event_id=" + last : ""));
    es.addEventListener("towow.notice.posted", onNotice);
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
      es.close();
      retry = setTimeout(follow, 15000); // refused (the server restarting, say): ask again later
    };
  };
  api("/api/v1/notices?limit=" + SHOWN, { cache: "no-store" }).then((out) => {
    if (stopped) return;
    notices = out.notices;
    last = notices.length ? notices[0].cursor : 0;
    render();
    follow();
  }).catch(() => { render(); });
  countApprovals(0);
  render();

  return () => {
    stopped = true;
    clearTimeout(retry);
    if (es) es.close();
    document.removeEventListener("click", outside);
    document.removeEventListener("keydown", escape);
    inboxEvents.removeEventListener("approvals", onApprovals);
    fill(box);
    box.hidden = true;
    approvalsCount.hidden = true;
  };
}
