package negotiation

import "github.com/towow/towow/domain/event"

// Every failure a negotiation records carries its TOWOW_* code:
// in the failure event's error_code, and in a towow.error.occurred
// appended in the same decision, so a
// reader following only the error events sees every coded failure. An
// LLM call that fell back at a stage that has a failure code is
// recorded the same way, as recoverable: the negotiation goes on with the
// fallback's answer. Refusals of bad requests are not
// recorded: the API answers them with a problem+json and writes nothing.

// occurred is the towow.error.occurred of code, with a message and the
// ids the failure concerns (empty ids left out).
func occurred(code *event.Error, message, channelID, demandID string) *ErrorOccurred {
	ctx := map[string]string{}
	if channelID != "" {
		ctx["channel_id"] = channelID
	}
	if demandID != "" {
		ctx["demand_id"] = demandID
	}
	if message == "" {
		message = code.Message
	}
	return &ErrorOccurred{ErrorCode: code.Code, ErrorMessage: message, Context: ctx, Recoverable: code.Recoverable}
}

// failed returns a negotiation's failure with its code set, followed by its
// towow.error.occurred.
func failed(code *event.Error, f *NegotiationFailed, message string) []event.Payload {
	f.ErrorCode = code.Code
	return []event.Payload{f, occurred(code, message, f.ChannelID, f.DemandID)}
}

// FallbackStage is a stage whose LLM call falling back is recorded with
// a failure code (as recoverable).
type FallbackStage string

// Stages with a fallback code.
const (
	FallbackUnderstand FallbackStage = "understand" // prompt 1: TOWOW_DEMAND_003
	FallbackFilter     FallbackStage = "filter"     // prompt 2: TOWOW_FILTER_002 or _003
	FallbackAggregate  FallbackStage = "aggregate"  // prompt 4: TOWOW_PROPOSAL_001
)

// FellBack is the towow.error.occurred (recoverable) a decision resting on
// call records when the call's fallback answered at stage, or nil when the
// model answered (or no call was made). The step appends it to the events
// of the decision the fallback's answer drove.
func FellBack(stage FallbackStage, call *event.LLMCall, channelID, demandID string) *ErrorOccurred {
	if call == nil || !call.FallbackUsed {
		return nil
	}
	var code *event.Error
	switch stage {
	case FallbackUnderstand:
		code = ErrUnderstandingUnavailable
	case FallbackFilter:
		code = ErrFilterTimeout
		if call.Outcome == event.LLMOutcomeParseError {
			code = ErrFilterUnparsable
		}
	case FallbackAggregate:
		code = ErrAggregationFallback
	default:
		return nil
	}
	msg := code.Message + " (" + call.PromptKey + ": " + call.Outcome
	if call.Error != "" {
		msg += ", " + call.Error
	}
	return occurred(code, msg+")", channelID, demandID)
}
