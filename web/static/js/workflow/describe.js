// The workflow page in plain words: what the assistant did at a step of
// its turn, who did something, and an event of the workflow's stream as
// one line, all with steps' titles and people's names. People never read
// the assistant's tools, the Coordinator's own words ("ok: …", a rule's
// name) or ids.
import { eventLabel } from "../catalog.js";

// ACTIONS say what the assistant's tools do, for people.
const ACTIONS = {
  get_workflow: () => "查看了执行计划",
  get_node: (a, t) => "查看了" + t(a.node_id),
  ask_user: () => "向你提了一个问题",
  create_node: (a) => "添加了步骤「" + ((a.node && a.node.title) || "新步骤") + "」",
  update_node: (a, t) => "修改了" + t(a.node_id),
  delete_node: (a, t) => "删除了" + t(a.node_id),
  connect: (a, t) => "设置了依赖：" + t(a.from) + " 完成后再开始 " + t(a.to),
  disconnect: (a, t) => "去掉了依赖：" + t(a.from) + " → " + t(a.to),
  move_node: (a, t) => "移动了" + t(a.node_id),
  execute_workflow: () => "开始执行",
  cancel_workflow: () => "取消了执行",
  approve_node: (a, t) => "替你批准了" + t(a.node_id),
  reject_node: (a, t) => "替你拒绝了" + t(a.node_id),
};

// quoted is a node's title in quotes (a step no longer there: 已删除的步骤).
const quoted = (wf) => (id) => "「" + wf.titleOf(id) + "」";

// stepText says what the assistant did at one step of its turn (s: the
// step as the conversation lists it).
export function stepText(wf, s) {
  const act = (s.action && ACTIONS[s.action.tool]) || null;
  const what = act ? act(s.action.args || {}, quoted(wf)) : "处理了你的消息";
  return what + (s.rejected ? "（没有做成）" : "");
}

// actorName says who caused an event of the workflow (its metadata): the
// assistant, a person (by name; 我 for the signed-in one), or the run.
export function actorName(wf, meta) {
  const m = meta || {};
  if (m.actor === "conversation_agent") return "助手";
  const user = (m.principal || "").startsWith("user:") ? m.principal.slice(5) : "";
  if (user) return wf.me && wf.me.user_id === user ? "我" : user;
  return "";
}

// eventText is an event of the workflow's stream in one line: its label,
// the step or dependency it is about, and the server's summary (an
// assistant's step: what it did, in plain words).
export function eventText(wf, e) {
  const p = e.payload || {};
  const t = quoted(wf);
  if (e.event_type === "towow.conversation.step") return "助手" + stepText(wf, { action: p.action, rejected: p.rejected });
  if (e.event_type === "towow.conversation.reported") return "助手：" + (e.summary || p.text || "");
  if (e.event_type === "towow.conversation.message") return (actorName(wf, e.metadata) || "有人") + "对助手说：" + (e.summary || p.text || "");
  const about = p.edge ? t(p.edge.from) + " → " + t(p.edge.to)
    : p.node && p.node.title ? "" : p.node_id ? t(p.node_id) : "";
  return eventLabel(e.event_type) + (about ? " " + about : "") + (e.summary ? "：" + e.summary : "");
}
