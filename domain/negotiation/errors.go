package negotiation

import "github.com/towow/towow/domain/event"

// Sentinel errors; compare with errors.Is.
var (
	// ErrDemandInvalid: the demand cannot be used as given (TOWOW_DEMAND_001,
	// 需求解析失败), e.g. it is longer than MaxDemandRunes.
	ErrDemandInvalid = &event.Error{Code: "TOWOW_DEMAND_001", Message: "demand cannot be parsed", Recoverable: true}
	// ErrDemandEmpty: the demand text is empty (TOWOW_DEMAND_002, 需求内容为空).
	ErrDemandEmpty = &event.Error{Code: "TOWOW_DEMAND_002", Message: "demand is empty"}
	// ErrNothingToClarify: a clarification answers only a rejected demand
	// (TOWOW_DEMAND_004; TOWOW_DEMAND_003 means prompt 1 fell back).
	ErrNothingToClarify = &event.Error{Code: "TOWOW_DEMAND_004", Message: "the demand was not rejected: nothing to clarify"}
	// ErrNoCandidates: smart filtering found no agent (TOWOW_FILTER_001).
	ErrNoCandidates = &event.Error{Code: "TOWOW_FILTER_001", Message: "no suitable agent", Recoverable: true}
	// ErrInvalidTransition: the channel cannot move to the requested state
	// (TOWOW_CHANNEL_003, Channel状态异常).
	ErrInvalidTransition = &event.Error{Code: "TOWOW_CHANNEL_003", Message: "invalid channel state transition"}
	// ErrNotInvited: the agent was not invited to the channel.
	ErrNotInvited = &event.Error{Code: "TOWOW_CHANNEL_004", Message: "agent not invited to this channel"}
	// ErrNotParticipant: the agent is not (or no longer) a participant.
	ErrNotParticipant = &event.Error{Code: "TOWOW_CHANNEL_005", Message: "agent is not a participant of this round"}
	// ErrDuplicate: the agent already answered in this phase or round; the
	// second answer is ignored.
	ErrDuplicate = &event.Error{Code: "TOWOW_CHANNEL_006", Message: "duplicate answer"}
	// ErrOffersClosed: offers are no longer collected (TOWOW_CHANNEL_007).
	ErrOffersClosed = &event.Error{Code: "TOWOW_CHANNEL_007", Message: "offer collection is closed"}
	// ErrWrongRound: feedback names another round than the current one.
	ErrWrongRound = &event.Error{Code: "TOWOW_PROPOSAL_005", Message: "feedback for a round that is not open"}
	// ErrFeedbackClosed: no proposal is awaiting feedback (TOWOW_PROPOSAL_006;
	// older servers answered TOWOW_PROPOSAL_003, which means only a round
	// that ended without feedback: [ErrNoFeedback]).
	ErrFeedbackClosed = &event.Error{Code: "TOWOW_PROPOSAL_006", Message: "feedback collection is closed"}
	// ErrInvalidAnswer: an offer or feedback is malformed (unknown decision,
	// missing conditions, ...).
	ErrInvalidAnswer = &event.Error{Code: "TOWOW_CHANNEL_008", Message: "invalid offer or feedback"}
	// ErrMaxDepth: a sub-negotiation would exceed the maximum depth
	// (TOWOW_SUBNET_001, 超过最大递归深度).
	ErrMaxDepth = &event.Error{Code: "TOWOW_SUBNET_001", Message: "maximum sub-negotiation depth exceeded"}

	// ErrUnderstandingUnavailable: prompt 1 (demand understanding) gave no
	// usable answer and its fallback understood
	// the demand by keywords (TOWOW_DEMAND_003, SecondMe服务不可用).
	ErrUnderstandingUnavailable = &event.Error{Code: "TOWOW_DEMAND_003", Message: "demand understanding unavailable; understood by keywords", Recoverable: true}
	// ErrDemandStuck: a demand still had neither a channel nor a failure at
	// its stuck deadline: its understanding or filtering never finished
	// (TOWOW_DEMAND_005; a negotiation timeout, 协商超时).
	ErrDemandStuck = &event.Error{Code: "TOWOW_DEMAND_005", Message: "the demand was not processed in time", Recoverable: true}
	// ErrFilterTimeout: prompt 2 (smart filtering) did not answer — it
	// timed out, the provider failed or the breaker was open — and the
	// keyword fallback chose the candidates (TOWOW_FILTER_002, LLM筛选超时).
	ErrFilterTimeout = &event.Error{Code: "TOWOW_FILTER_002", Message: "smart filtering did not answer; candidates chosen by keywords", Recoverable: true}
	// ErrFilterUnparsable: prompt 2's answer did not parse and the keyword
	// fallback chose the candidates (TOWOW_FILTER_003, 筛选结果解析失败).
	ErrFilterUnparsable = &event.Error{Code: "TOWOW_FILTER_003", Message: "smart filtering's answer did not parse; candidates chosen by keywords", Recoverable: true}
	// ErrChannelStuck: a channel still negotiating at its stuck deadline
	// is failed (TOWOW_CHANNEL_003, Channel状态异常: the stuck check detects a
	// channel in an abnormal state; not recoverable, as the failed channel
	// is not).
	ErrChannelStuck = &event.Error{Code: "TOWOW_CHANNEL_003", Message: "the channel made no progress before its stuck deadline"}
	// ErrNoOffers: no invited agent answered before the offer timeout
	// (TOWOW_CHANNEL_009; a negotiation timeout, 协商超时).
	ErrNoOffers = &event.Error{Code: "TOWOW_CHANNEL_009", Message: "no offer arrived before the offer timeout", Recoverable: true}
	// ErrNoParticipants: every invited agent that answered declined
	// (TOWOW_CHANNEL_010).
	ErrNoParticipants = &event.Error{Code: "TOWOW_CHANNEL_010", Message: "every invited agent declined", Recoverable: true}
	// ErrModelUnavailable: the language model could not answer for most
	// of the agents asked (their twins gave no answer), so nothing was
	// decided on their behalf: not the demand's fault, try again later
	// (TOWOW_LLM_001).
	ErrModelUnavailable = &event.Error{Code: "TOWOW_LLM_001", Message: "the language model was unavailable: most agents could not answer", Recoverable: true}
	// ErrAggregationFallback: prompt 4 (aggregation) gave no usable answer
	// and its fallback built a simplified proposal (TOWOW_PROPOSAL_001,
	// 方案聚合失败).
	ErrAggregationFallback = &event.Error{Code: "TOWOW_PROPOSAL_001", Message: "proposal aggregation failed; a simplified proposal was distributed", Recoverable: true}
	// ErrNoFeedback: the last round ended without any feedback that counts
	// (TOWOW_PROPOSAL_003, 反馈收集超时: feedback collection came back empty).
	ErrNoFeedback = &event.Error{Code: "TOWOW_PROPOSAL_003", Message: "no feedback was collected in the last round", Recoverable: true}
	// ErrMaxRounds: the last round ended between the thresholds and the
	// proposal is force-finalized (TOWOW_PROPOSAL_004, 达到最大协商轮次);
	// recorded as recoverable, the negotiation goes on to its compromise.
	ErrMaxRounds = &event.Error{Code: "TOWOW_PROPOSAL_004", Message: "maximum negotiation rounds reached; force-finalizing", Recoverable: true}
	// ErrLowAcceptance: a round's accept rate fell under the fail threshold
	// (TOWOW_PROPOSAL_007; reason low_acceptance).
	ErrLowAcceptance = &event.Error{Code: "TOWOW_PROPOSAL_007", Message: "the proposal was rejected: accept rate under the fail threshold", Recoverable: true}
	// ErrNotFound: the demand, channel or agent does not exist.
	ErrNotFound = &event.Error{Code: "TOWOW_NOT_FOUND", Message: "not found"}
	// ErrAgentInvalid: an agent profile does not validate (TOWOW_AGENT_001).
	ErrAgentInvalid = &event.Error{Code: "TOWOW_AGENT_001", Message: "invalid agent profile"}
	// ErrAgentExists: an agent with that id is already registered
	// (TOWOW_AGENT_002).
	ErrAgentExists = &event.Error{Code: "TOWOW_AGENT_002", Message: "agent already exists"}
	// ErrAgentState: the agent is not in a state that allows the command,
	// e.g. deactivating an inactive agent (TOWOW_AGENT_003).
	ErrAgentState = &event.Error{Code: "TOWOW_AGENT_003", Message: "agent state does not allow this"}
	// ErrAgentNotExternal: only an agent with mode external gets a token
	// and answers through the API (TOWOW_AGENT_004).
	ErrAgentNotExternal = &event.Error{Code: "TOWOW_AGENT_004", Message: "agent is not external"}
)
