// A negotiation tree as the server folds it (GET
// /api/v1/negotiations/{demand_id}/view): the demand with its
// understanding, rejection, failure or fork origin, and every channel with
// its candidates, offers, latest proposal and its feedback, outcome, gaps
// and the sub-negotiations filling them. The page keeps no fold of its
// own: these helpers only read the view.
import { api } from "../api.js";
import { label } from "../dom.js";

// fetchView reads a demand's view (its whole tree for a root demand).
export const fetchView = (demandId) => api("/api/v1/negotiations/" + encodeURIComponent(demandId) + "/view");

// channelOf is the view's channel with that id (undefined before it opens).
export const channelOf = (v, id) => (v ? v.channels.find((c) => c.channel_id === id) : undefined);

// rootChannel is the demand's own channel (undefined before it opens).
export const rootChannel = (v) => (v && v.channel_id ? channelOf(v, v.channel_id) : undefined);

// nameOf names agents by the view's display names (an unknown one by its id).
export const nameOf = (v) => (id) => (v && v.names[id]) || id;

// RULES name the rules a fork's change_rule may set, with their units.
export const RULES = [
  ["max_rounds", "最多轮次", "轮"], ["offer_timeout_seconds", "回应超时", "秒"], ["feedback_timeout_seconds", "反馈超时", "秒"],
  ["stuck_timeout_seconds", "停滞超时", "秒"], ["max_depth", "子协商最大层数", "层"], ["accept_percent", "达成所需接受率", "%"],
  ["fail_percent", "低于此接受率即失败", "%"],
];

// changeText says what a fork changes (who names an agent).
export function changeText(change, who) {
  if (!change || change.type === "none") return "不做改变（重放）";
  switch (change.type) {
    case "remove_agent": return "去掉 " + who(change.agent_id);
    case "add_agent": return "加入 " + who(change.agent_id);
    case "replace_offer": return who(change.agent_id) + " 的回应改为「" + label((change.offer || {}).decision) + "」";
    case "replace_feedback": return who(change.agent_id) + " 的反馈改为「" + label((change.feedback || {}).feedback_type) + "」";
    case "change_rule": return "规则改为：" + RULES.filter(([k]) => (change.rules || {})[k] != null)
      .map(([k, name, unit]) => name + " " + change.rules[k] + (unit === "%" ? "%" : " " + unit)).join("、");
    case "change_demand": return "需求改为「" + change.text + "」";
  }
  return "其他改变";
}
