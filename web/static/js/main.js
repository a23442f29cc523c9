// ToWow console: a hash-routed single page over the public API. Each page
// is a function of the element it fills and its route's parameters; it
// returns what stops it (its streams and timers) when the route changes.
// No page shows before the person is signed in (auth.js).
import { showBanner } from "./api.js";
import { agentPage, agentsPage } from "./agents.js";
import { approvalsPage } from "./approvals.js";
import { startSession } from "./auth.js";
import { loadCatalog } from "./catalog.js";
import { comparePage } from "./compare.js";
import { fill } from "./dom.js";
import { erasePage } from "./erase.js";
import { historyPage } from "./history.js";
import { homePage } from "./home.js";
import { startInbox } from "./inbox.js";
import { negotiationPage } from "./negotiation/page.js";
import { opsPage } from "./ops.js";
import { workflowPage } from "./workflow/page.js";

const app = document.getElementById("app");
let cleanup = () => {};

// page picks the page of a route: its first part and the rest.
function page(name, id, rest) {
  if (name === "n" && id) return negotiationPage(app, id);
  if (name === "w" && id) return workflowPage(app, id);
  if (name === "history") return historyPage(app);
  if (name === "fork" && id) return comparePage(app, "/api/v1/forks/" + encodeURIComponent(id) + "/compare", ["原协商", "分叉"]);
  if (name === "compare" && id && rest) {
    return comparePage(app, "/api/v1/negotiations/compare?" + new URLSearchParams({ left: id, right: rest }), ["协商 A", "协商 B"]);
  }
  if (name === "agents" && id) return agentPage(app, id);
  if (name === "agents") return agentsPage(app);
  if (name === "ops") return opsPage(app);
  if (name === "approvals") return approvalsPage(app);
  if (name === "erase") return erasePage(app);
  return homePage(app);
}

function leavePage() {
  cleanup();
  cleanup = () => {};
}

function route() {
  if (!session.signedIn()) return; // the sign-in view stays; signing in shows this route
  leavePage();
  showBanner("");
  const [name, id, rest] = (location.hash.replace(/^#\/?/, "") || "").split("/").map(decodeURIComponent);
  document.querySelectorAll("[data-nav]").forEach((a) => a.classList.toggle("active",
    a.dataset.nav === (name || "home") || (["n", "w", "compare", "fork"].includes(name) && a.dataset.nav === "history")));
  fill(app);
  window.scrollTo(0, 0);
  const stop = page(name, id, rest);
  cleanup = typeof stop === "function" ? stop : () => {};
}

window.addEventListener("hashchange", route);
loadCatalog().catch(() => {}); // early: the streams wait for it (the catalog needs no sign-in)
// The header's inbox (notices, the approvals' count) follows whoever is signed in.
let stopInbox = () => {};
const session = startSession(app, {
  enter: route,
  leave: leavePage,
  welcome: (who) => { stopInbox(); stopInbox = startInbox(who); },
  farewell: () => { stopInbox(); stopInbox = () => {}; },
});
