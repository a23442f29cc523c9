// Signing in. The console asks the server who it is talking to (GET
// /auth/me) before it shows any page: a person signed in sees the pages
// and, in the header, their name, 删除我的数据 and 退出; anyone else the sign-in view of
// the server's mode. Local mode (no identity provider): a name is enough
// (POST /auth/local); an identity provider: 登录 goes to /auth/login and
// comes back signed in. The session is an HttpOnly cookie the page never
// reads; a 401 to any request with it (it expired) brings the sign-in view
// back (signedOut, from api.js).
import { api, describe, postJSON, showBanner, signedOut } from "./api.js";
import { fill, h } from "./dom.js";

// whoAmI is GET /auth/me: {signed_in, kind, user_id, name, mode, login}.
export const whoAmI = () => api("/auth/me", { cache: "no-store" });

// startSession shows the sign-in view or, once signed in, the pages:
// enter() shows the page of the current route, leave() stops it;
// welcome(who) starts what follows the person signed in (the header's
// inbox), farewell() stops it. It returns signedIn(), which says whether
// the pages are showing.
export function startSession(app, { enter, leave, welcome, farewell }) {
  const nav = document.querySelector("header.top nav");
  const account = document.getElementById("account");
  let me = null; // who is signed in (null: the sign-in view shows)

  const signIn = (who) => {
    me = who;
    nav.hidden = false;
    fill(account, h("span", { id: "account-name", title: who.user_id }, who.name || who.user_id),
      h("a", { href: "#/erase", id: "erase-link", class: "small muted" }, "删除我的数据"),
      h("button", { type: "button", id: "sign-out", class: "ghost small", onclick: signOut }, "退出"));
    account.hidden = false;
    welcome(who);
    enter();
  };
  const showSignIn = (who) => {
    if (me) leave();
    farewell();
    me = null;
    nav.hidden = true;
    account.hidden = true;
    fill(account);
    showBanner("");
    fill(app, signInView(who, signIn));
  };
  // check asks the server and shows what it says (an unreachable server:
  // a message and 重试); calls during a check share it.
  let checking = null;
  const check = () => checking || (checking = ask().finally(() => { checking = null; }));
  const ask = async () => {
    try {
      const who = await whoAmI();
      if (who.signed_in) signIn(who);
      else showSignIn(who);
    } catch (e) {
      if (me) leave();
      farewell();
      me = null;
      fill(app, h("section", { class: "card signin", id: "signin" }, h("p", { class: "error" }, describe(e)),
        h("button", { type: "button", id: "signin-retry", onclick: check }, "重试")));
      // A server that asked for a pause (429, 503) is asked again after it.
      if (e.retryAfter) setTimeout(() => { if (!me) check(); }, e.retryAfter * 1000);
    }
  };
  async function signOut() {
    try {
      await postJSON("/auth/logout");
    } catch (e) {
      showBanner(describe(e));
      return;
    }
    check();
  }
  signedOut.addEventListener("signed-out", () => { if (me) check(); });
  check();
  return { signedIn: () => me !== null };
}

// signInView is the sign-in card of a server's mode; signIn gets who
// signed in (local mode).
function signInView(who, signIn) {
  const card = (...children) => h("section", { class: "card signin", id: "signin", "data-mode": who.mode },
    h("h1", {}, "登录 ToWow"), children);
  if (who.mode === "local") return card(localForm(signIn));
  if (who.mode === "oidc" && who.login) {
    return card(h("p", { class: "muted" }, "这台服务器通过身份提供方（OpenID Connect）登录。"),
      h("button", { type: "button", id: "signin-submit", onclick: () => location.assign(who.login) }, "登录"));
  }
  if (who.mode === "oidc") {
    return card(h("p", {}, "这台服务器的控制台没有配置登录（TOWOW_OIDC_CLIENT_ID 未设置）：请带着身份提供方的令牌直接调用 API。"));
  }
  return card(h("p", {}, "这台服务器没有配置登录方式，任何人都无法在这里登录。"));
}

// localForm signs in by name (local mode).
function localForm(signIn) {
  const name = h("input", { id: "signin-name", name: "username", autocomplete: "username", maxlength: 64, size: 20, placeholder: "例如 alice" });
  const err = h("div", { class: "error", id: "signin-error", role: "alert" });
  const submit = h("button", { type: "submit", id: "signin-submit" }, "登录");
  const form = h("form", {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      submit.disabled = true;
      try {
        const who = await postJSON("/auth/local", { name: name.value.trim() });
        signIn(who);
      } catch (ex) {
        err.textContent = describe(ex);
        submit.disabled = false;
        name.focus();
      }
    },
  },
  h("p", { class: "muted" }, "这台服务器运行在本地模式（没有接入身份提供方）：输入一个名字即可登录，同一个名字看到同一份协商。"),
  h("div", { class: "row" }, h("label", { for: "signin-name" }, "名字"), name, submit),
  h("p", { class: "small muted" }, "名字由字母（含中文）、数字和 . _ - 组成，以字母或数字开头，最多 64 个字符。"),
  err);
  setTimeout(() => name.focus(), 0);
  return form;
}
