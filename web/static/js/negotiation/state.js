// A negotiation tree's state as the negotiation page shows it, folded from
// the tree's stream in the browser: every channel (keyed by channel id)
// with its candidates and their reasons, offers, every proposal version,
// the feedback on each version with who gave it, evaluations, gaps and the
// sub-negotiations each gap opened, and the outcome. The server's read
// models hold a channel's row, offers and proposals, but not this whole
// tree in one read, so the page folds the events it follows anyway.
import { label } from "../dom.js";

// newState is the state before the first event of rootDemandId's tree.
export function newState(rootDemandId) {
  return { root: rootDemandId, demand: null, understanding: null, failure: null, channels: {}, demandChannel: {}, names: {} };
}
function channelOf(s, id) {
  if (!s.channels[id]) {
    s.channels[id] = { id, demandId: "", parent: "", depth: 0, candidates: [], offers: {}, offerOrder: [], proposals: [],
      feedback: {}, round: 0, maxRounds: 0, status: "created", evaluations: [], gaps: [], subnets: [], outcome: null, completed: false };
  }
  return s.channels[id];
}
// reduce folds one event into the state.
export function reduce(s, ev) {
  const p = ev.payload || {};
  // Subnet events name the channel that spawned them as parent_channel_id.
  const chID = p.channel_id || (ev.event_type.startsWith("towow.subnet.") ? p.parent_channel_id : "");
  const ch = chID ? channelOf(s, chID) : null;
  switch (ev.event_type) {
    case "towow.demand.submitted": if (p.demand_id === s.root) s.demand = p; break;
    case "towow.demand.understood": if (p.demand_id === s.root) s.understanding = p; break;
    case "towow.filter.completed":
    case "towow.channel.created":
      for (const c of p.candidates || []) s.names[c.agent_id] = c.display_name || c.agent_id;
      if (ch) {
        ch.candidates = p.candidates || []; ch.demandId = p.demand_id; ch.parent = p.parent_channel || "";
        ch.depth = p.recursion_depth || 0; ch.maxRounds = p.max_rounds || ch.maxRounds; s.demandChannel[p.demand_id] = ch.id;
      }
      break;
    case "towow.demand.accepted": s.demandChannel[p.demand_id] = p.channel_id; break;
    case "towow.channel.invite_sent": // a candidate added after the channel opened (a fork's add_agent)
      if (ch && !ch.candidates.some((c) => c.agent_id === p.agent_id)) {
        ch.candidates = ch.candidates.concat([{ agent_id: p.agent_id, display_name: p.display_name, reason: p.reason }]);
      }
      if (p.display_name) s.names[p.agent_id] = p.display_name;
      break;
    case "towow.channel.rules_changed": if (ch) ch.maxRounds = p.rules.max_rounds; break;
    case "towow.channel.status_changed": ch.status = p.new_status; break;
    case "towow.offer.submitted":
      if (!ch.offers[p.agent_id]) ch.offerOrder.push(p.agent_id);
      ch.offers[p.agent_id] = p;
      if (p.display_name) s.names[p.agent_id] = p.display_name;
      break;
    case "towow.negotiation.round_started": ch.round = p.round; ch.maxRounds = p.max_rounds || ch.maxRounds; break;
    case "towow.proposal.distributed": ch.proposals.push({ round: p.round, proposal: p.proposal, cursor: ev.cursor }); ch.round = p.round; break;
    case "towow.proposal.feedback":
      (ch.feedback[p.proposal_version] = ch.feedback[p.proposal_version] || {})[p.agent_id] = Object.assign({ actor: ev.metadata && ev.metadata.actor }, p);
      break;
    case "towow.feedback.evaluated": ch.evaluations.push(p); break;
    case "towow.proposal.finalized": ch.outcome = { kind: "finalized", proposal: p.final_proposal, participants: p.participants || [], rounds: p.rounds_taken }; break;
    case "towow.negotiation.force_finalized":
      ch.outcome = { kind: "force_finalized", proposal: p.final_proposal, confirmed: p.confirmed_participants || [],
        optional: p.optional_participants || [], rounds: p.rounds_taken, acceptRate: p.accept_rate };
      break;
    case "towow.demand.rejected":
      if (p.demand_id === s.root) s.rejection = p;
      break;
    case "towow.negotiation.forked":
      if (p.demand_id === s.root) s.fork = p;
      break;
    case "towow.negotiation.failed":
      if (ch) ch.outcome = { kind: "failed", reason: p.reason, code: p.error_code, suggestion: p.suggestion, proposal: p.last_proposal };
      else if (p.demand_id === s.root) s.failure = p;
      break;
    case "towow.gap.identified": ch.gaps = p.gaps || []; break;
    case "towow.subnet.triggered": ch.subnets.push(p); break;
    case "towow.subnet.completed": {
      const sn = ch.subnets.find((x) => x.sub_channel_id === p.sub_channel_id);
      if (sn) sn.result = p;
      break;
    }
    case "towow.negotiation.completed":
      ch.completed = true; ch.status = p.status; ch.merged = p.merged_plan || null;
      if (!ch.outcome) ch.outcome = { kind: p.status, proposal: p.final_proposal, rounds: p.rounds_taken };
      break;
  }
}

// changeText says what a fork changes (who names an agent).
export function changeText(change, who) {
  if (!change || change.type === "none") return "不做改变（重放）";
  switch (change.type) {
    case "remove_agent": return "去掉 " + who(change.agent_id);
    case "add_agent": return "加入 " + who(change.agent_id);
    case "replace_offer": return who(change.agent_id) + " 的回应改为「" + label((change.offer || {}).decision) + "」";
    case "replace_feedback": return who(change.agent_id) + " 的反馈改为「" + label((change.feedback || {}).feedback_type) + "」";
    case "change_rule": return "规则改为 " + JSON.stringify(change.rules || {});
    case "change_demand": return "需求改为「" + change.text + "」";
  }
  return change.type;
}

// rootChannel is the channel of the tree's root demand (undefined before it opens).
export const rootChannel = (s) => s.channels[s.demandChannel[s.root]];
