// The workflow page's conversation with the assistant: the turns as the
// API gives them (GET …/messages), read again when the stream says the
// conversation moved, and the form that sends a message.
import { api, describe, postJSON } from "../api.js";
import { fill, h } from "../dom.js";

export function installChat(wf) {
  const { ui, id, clientId } = wf;
  const path = "/api/v1/workflows/" + encodeURIComponent(id) + "/messages";
  const turn = (t) => h("li", { "data-message": t.message_id, "data-done": String(!!t.done), class: t.client_id === clientId ? "me" : "other" },
    h("div", { class: "wf-msg" }, h("span", { class: "who" }, t.client_id === clientId ? "我" : "其他人"), t.text),
    (t.steps || []).map((s) => h("div", { class: "wf-step small muted" }, "第 " + s.step + " 步：", (s.action && s.action.thought) || "",
      s.observation ? "：" + s.observation : "")),
    t.reply ? h("div", { class: "wf-reply" + (t.question ? " question" : "") }, h("span", { class: "who" }, "助手"), t.reply)
      : t.done ? null : h("div", { class: "small muted" }, "助手思考中……"));

  let seq = 0;
  wf.loadChat = async () => {
    const mine = ++seq;
    try {
      const out = await api(path);
      if (mine !== seq) return;
      const atBottom = ui.chatLog.scrollHeight - ui.chatLog.scrollTop - ui.chatLog.clientHeight < 60;
      fill(ui.chatLog, (out.turns || []).map(turn));
      if (atBottom) ui.chatLog.scrollTop = ui.chatLog.scrollHeight;
    } catch (e) {
      if (mine === seq) fill(ui.chatLog, h("li", { class: "error" }, describe(e)));
    }
  };

  ui.chatForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    const text = ui.chatInput.value.trim();
    if (!text) return;
    ui.chatSend.disabled = true;
    try {
      await postJSON(path, { text, client_id: clientId });
      ui.chatInput.value = "";
      wf.loadChat();
    } catch (err) {
      ui.error.textContent = describe(err);
    } finally {
      ui.chatSend.disabled = false;
    }
  });
}
