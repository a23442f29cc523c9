package domain

import "fmt"

// Error is a domain error with a stable TOWOW_* code (002 §4). Decide
// functions return these; the API maps the code to an HTTP status.
// errors.Is matches two *Error values with the same Code, so callers test
// against the sentinels below whatever the message says.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// errorf returns an *Error with sentinel's code and a specific message.
func errorf(sentinel *Error, format string, args ...any) *Error {
	return &Error{Code: sentinel.Code, Message: fmt.Sprintf(format, args...)}
}

// Sentinel errors; compare with errors.Is.
var (
	// ErrDemandInvalid: the demand cannot be used as given (TOWOW_DEMAND_001,
	// 需求解析失败), e.g. it is longer than MaxDemandRunes.
	ErrDemandInvalid = &Error{Code: "TOWOW_DEMAND_001", Message: "demand cannot be parsed"}
	// ErrDemandEmpty: the demand text is empty (TOWOW_DEMAND_002, 需求内容为空).
	ErrDemandEmpty = &Error{Code: "TOWOW_DEMAND_002", Message: "demand is empty"}
	// ErrNothingToClarify: a clarification answers only a rejected demand
	// (TOWOW_DEMAND_004; 003 is 002's SecondMe outage).
	ErrNothingToClarify = &Error{Code: "TOWOW_DEMAND_004", Message: "the demand was not rejected: nothing to clarify"}
	// ErrNoCandidates: smart filtering found no agent (TOWOW_FILTER_001).
	ErrNoCandidates = &Error{Code: "TOWOW_FILTER_001", Message: "no suitable agent"}
	// ErrInvalidTransition: the channel cannot move to the requested state
	// (TOWOW_CHANNEL_003, Channel状态异常).
	ErrInvalidTransition = &Error{Code: "TOWOW_CHANNEL_003", Message: "invalid channel state transition"}
	// ErrNotInvited: the agent was not invited to the channel.
	ErrNotInvited = &Error{Code: "TOWOW_CHANNEL_004", Message: "agent not invited to this channel"}
	// ErrNotParticipant: the agent is not (or no longer) a participant.
	ErrNotParticipant = &Error{Code: "TOWOW_CHANNEL_005", Message: "agent is not a participant of this round"}
	// ErrDuplicate: the agent already answered in this phase or round; the
	// second answer is ignored.
	ErrDuplicate = &Error{Code: "TOWOW_CHANNEL_006", Message: "duplicate answer"}
	// ErrOffersClosed: offers are no longer collected (TOWOW_CHANNEL_007).
	ErrOffersClosed = &Error{Code: "TOWOW_CHANNEL_007", Message: "offer collection is closed"}
	// ErrWrongRound: feedback names another round than the current one.
	ErrWrongRound = &Error{Code: "TOWOW_PROPOSAL_005", Message: "feedback for a round that is not open"}
	// ErrFeedbackClosed: no proposal is awaiting feedback (TOWOW_PROPOSAL_003
	// is the design's "feedback collection timed out").
	ErrFeedbackClosed = &Error{Code: "TOWOW_PROPOSAL_003", Message: "feedback collection is closed"}
	// ErrInvalidAnswer: an offer or feedback is malformed (unknown decision,
	// missing conditions, ...).
	ErrInvalidAnswer = &Error{Code: "TOWOW_CHANNEL_008", Message: "invalid offer or feedback"}
	// ErrMaxDepth: a sub-negotiation would exceed the maximum depth
	// (TOWOW_SUBNET_001, 超过最大递归深度).
	ErrMaxDepth = &Error{Code: "TOWOW_SUBNET_001", Message: "maximum sub-negotiation depth exceeded"}
	// ErrNotFound: the demand, channel or agent does not exist.
	ErrNotFound = &Error{Code: "TOWOW_NOT_FOUND", Message: "not found"}
	// ErrAgentInvalid: an agent profile does not validate (TOWOW_AGENT_001).
	ErrAgentInvalid = &Error{Code: "TOWOW_AGENT_001", Message: "invalid agent profile"}
	// ErrAgentExists: an agent with that id is already registered
	// (TOWOW_AGENT_002).
	ErrAgentExists = &Error{Code: "TOWOW_AGENT_002", Message: "agent already exists"}
	// ErrAgentState: the agent is not in a state that allows the command,
	// e.g. deactivating an inactive agent (TOWOW_AGENT_003).
	ErrAgentState = &Error{Code: "TOWOW_AGENT_003", Message: "agent state does not allow this"}
	// ErrAgentNotExternal: only an agent with mode external gets a token
	// and answers through the API (TOWOW_AGENT_004).
	ErrAgentNotExternal = &Error{Code: "TOWOW_AGENT_004", Message: "agent is not external"}
)
