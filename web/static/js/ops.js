// The operations page: the LLM, River's jobs, the read models' lag, and
// the way into River UI.
import { api, describe } from "./api.js";
import { badge, fill, h, label } from "./dom.js";

export function opsPage(app) {
  const box = h("div", { id: "ops" }, h("p", { class: "muted" }, "加载中……"));
  app.append(h("section", { class: "card" }, h("h1", {}, "运行状态"), box), riverUICard());
  const load = async () => {
    try {
      const st = await api("/api/v1/status");
      fill(box,
        h("h2", {}, "LLM"),
        h("p", {}, "提供方 ", h("b", { id: "llm-provider" }, st.llm.provider), st.llm.provider === "builtin" ? h("span", { class: "muted small" }, "（离线模拟，不是语言模型）") : null,
          " · 熔断器 ", badge(st.llm.breaker === "closed" ? "ok" : "open", label(st.llm.breaker))),
        h("h2", {}, "River 任务"),
        h("div", {}, Object.entries(st.river_jobs).sort().map(([k, v]) => h("span", { class: "stat" }, h("b", {}, v), k))),
        h("h2", {}, "读模型延迟（落后日志的事件数）"),
        h("div", {}, Object.entries(st.projection_lag).sort().map(([k, v]) => h("span", { class: "stat" }, h("b", {}, v), k))),
        h("p", { class: "small muted" }, "日志位置 " + st.head + " · 每轮最多 " + st.rules.max_rounds + " 轮 · 版本 " + st.version));
    } catch (e) {
      fill(box, h("p", { class: "error" }, describe(e)));
    }
  };
  load();
  const t = setInterval(load, 2000);
  return () => clearInterval(t);
}

// riverUICard links to River UI (/riverui/, River's job dashboard), which
// needs the admin token. A page the browser opens cannot carry an
// Authorization header, so the token is sent once, as a header, to POST
// /riverui/session, which answers with an HttpOnly cookie scoped to
// /riverui (derived from the token, not the token): this page never stores
// the token, and the cookie opens nothing but River UI.
function riverUICard() {
  const token = h("input", { type: "password", id: "riverui-token", autocomplete: "off", size: 28, maxlength: 512,
    placeholder: "管理员令牌 TOWOW_ADMIN_TOKEN", "aria-label": "管理员令牌" });
  const err = h("div", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", id: "riverui-login" }, "登录并打开 River UI");
  const form = h("form", {
    class: "row",
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      submit.disabled = true;
      try {
        await api("/riverui/session", { method: "POST", headers: { Authorization: "Bearer " + token.value.trim() } });
        token.value = "";
        location.assign("/riverui/"); // a new tab opened after an await would be a blocked popup
      } catch (ex) {
        err.textContent = describe(ex);
      } finally {
        submit.disabled = false;
      }
    },
  }, token, submit);
  return h("section", { class: "card", id: "riverui" },
    h("h2", {}, "River 任务面板"),
    h("p", { class: "small muted" }, "River UI 列出每个协商步骤（River 任务）的状态、参数与错误，可重试或取消。它需要管理员令牌：令牌只发送一次，换成仅对 /riverui 有效的会话 Cookie（12 小时）。"),
    form, err,
    h("p", { class: "small" }, h("a", { id: "riverui-link", href: "/riverui/", target: "_blank", rel: "noopener" }, "打开 River UI"),
      h("span", { class: "muted" }, "（已登录时）")));
}

