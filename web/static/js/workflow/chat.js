// The workflow page's conversation with the assistant: the turns as the
// API gives them (GET …/messages), read again when the stream says the
// conversation moved, and the form that sends a message. A turn is a
// person's message (我 for the signed-in person, else their name), what
// the assistant did about it in plain words, and its reply; a report
// turn is the assistant speaking unasked, shown as its own message.
import { api, describe, postJSON } from "../api.js";
import { fill, h } from "../dom.js";
import { stepText } from "./describe.js";

export function installChat(wf) {
  const { ui, id, clientId } = wf;
  const path = "/api/v1/workflows/" + encodeURIComponent(id) + "/messages";
  const mine = (t) => (t.user_id && wf.me ? t.user_id === wf.me.user_id : t.client_id === clientId);
  const assistant = (text, question) => h("div", { class: "wf-reply" + (question ? " question" : "") }, h("span", { class: "who" }, "助手"), h("span", { class: "wf-text" }, text));
  const turn = (t) => {
    if (t.report) {
      return h("li", { "data-message": t.message_id, "data-done": "true", "data-report": "true", class: "assistant" }, assistant(t.reply || ""));
    }
    const me = mine(t);
    const steps = (t.steps || []).map((s) => stepText(wf, s));
    return h("li", { "data-message": t.message_id, "data-done": String(!!t.done), class: me ? "me" : "other" },
      h("div", { class: "wf-msg" }, h("span", { class: "who" }, me ? "我" : (t.user_id || "其他人")), h("span", { class: "wf-text" }, t.text)),
      steps.length ? h("ul", { class: "wf-steps small muted" }, steps.map((s) => h("li", { class: "wf-step" }, s))) : null,
      t.reply ? assistant(t.reply, t.question) : t.done ? null : h("div", { class: "small muted" }, "助手思考中……"));
  };

  let seq = 0;
  wf.loadChat = async () => {
    const n = ++seq;
    try {
      const out = await api(path);
      if (n !== seq) return;
      const atBottom = ui.chatLog.scrollHeight - ui.chatLog.scrollTop - ui.chatLog.clientHeight < 60;
      const turns = out.turns || [];
      fill(ui.chatLog, turns.length ? turns.map(turn)
        : h("li", { class: "muted small wf-chat-empty" }, "还没有对话。可以让助手改计划，例如“在活动当天之前加一个审批步骤”，或者说“开始执行”。"));
      if (atBottom) ui.chatLog.scrollTop = ui.chatLog.scrollHeight;
    } catch (e) {
      if (n === seq) fill(ui.chatLog, h("li", { class: "error" }, describe(e)));
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
