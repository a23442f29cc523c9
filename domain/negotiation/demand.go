package negotiation

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/towow/towow/domain/event"
)

// MaxDemandRunes is the longest accepted demand text.
const MaxDemandRunes = 10000

// DemandState is a demand folded from its stream.
type DemandState struct {
	ID, UserID, RawInput string
	RootDemandID         string // the negotiation tree's root (itself for a root demand)
	ParentDemandID       string
	ParentChannelID      string
	GapType              string
	Depth                int
	CapabilityHints      []string
	NeedCount            int // a sub-demand's: how many people its gap still needs
	Understanding        *DemandUnderstood
	Candidates           []Candidate
	FilterStarted        bool               // smart filtering was started
	FilterDone           bool               // smart filtering recorded its result
	ChannelID            string             // set once smart filtering opened a channel
	Failure              *NegotiationFailed // set when the demand failed before a channel existed
	Rejection            *DemandRejected    // set when the demand was rejected
	// ModelFailed: the understanding or the filter was a fallback's (the
	// model did not answer), so finding nobody says nothing of the demand.
	ModelFailed bool
	// Fork is set on a fork's root demand: where it was forked from and
	// its change.
	Fork *NegotiationForked
}

// Exists reports whether the demand was submitted.
func (d *DemandState) Exists() bool { return d.ID != "" }

// PromptUnderstanding is the demand as the prompts see it: its recorded
// understanding, or only its raw input before the understanding prompt
// answered.
func (d *DemandState) PromptUnderstanding() Understanding {
	if d.Understanding == nil {
		return Understanding{SurfaceDemand: d.RawInput}
	}
	return d.Understanding.Understanding()
}

// IsSub reports whether the demand is a sub-demand spawned to fill a gap.
func (d *DemandState) IsSub() bool { return d.ParentChannelID != "" }

// GapUnderstanding is what a sub-demand asks for as its gap states it:
// one need (the gap's role and capability tags, for as many people as the
// gap still needs) in the parent's context (place, date, scale, budget).
// Smart filtering reads it, whether or not prompt 1 has answered yet, so a
// sub-negotiation's candidates are chosen while its demand is being
// understood. parent is the parent demand's understanding.
func (d *DemandState) GapUnderstanding(parent Understanding) Understanding {
	tags := d.CapabilityHints
	if len(tags) == 0 {
		tags = []string{d.GapType}
	}
	need := Need{Role: d.GapType, CapabilityTags: tags, Count: min(max(1, d.NeedCount), MaxNeedCount)}
	return Understanding{SurfaceDemand: d.RawInput, CapabilityTags: tags, Needs: NormalizeNeeds([]Need{need}),
		Context: parent.Context, Confidence: parent.Confidence}
}

// Apply evolves the state by one event of the demand's stream.
func (d *DemandState) Apply(p event.Payload) {
	switch e := p.(type) {
	case *NegotiationForked:
		d.Fork = e

	case *DemandSubmitted:
		d.ID, d.UserID, d.RawInput = e.DemandID, e.UserID, e.RawInput
		d.RootDemandID = e.RootDemandID
		if d.RootDemandID == "" {
			d.RootDemandID = e.DemandID
		}
		d.ParentDemandID, d.ParentChannelID = e.ParentDemandID, e.ParentChannelID
		d.GapType, d.Depth, d.CapabilityHints, d.NeedCount = e.GapType, e.RecursionDepth, e.CapabilityTags, e.NeedCount
	case *DemandUnderstood:
		d.Understanding = e
	case *FilterStarted:
		d.FilterStarted = true
	case *FilterCompleted:
		d.Candidates, d.FilterDone = e.Candidates, true
	case *DemandAccepted:
		d.ChannelID = e.ChannelID
	case *NegotiationFailed:
		d.Failure = e
	case *DemandRejected:
		d.Rejection = e
	case *ErrorOccurred:
		switch e.ErrorCode {
		case ErrUnderstandingUnavailable.Code, ErrFilterTimeout.Code, ErrFilterUnparsable.Code:
			d.ModelFailed = true
		}
	}
}

// SubmitDemand is the command that starts a negotiation.
type SubmitDemand struct {
	DemandID string
	UserID   string
	RawInput string
	// Parent is set when a channel spawns a sub-demand for a gap.
	Parent *SubDemandOrigin
	// Clarifies is the rejected demand this one answers.
	Clarifies string
}

// SubDemandOrigin links a sub-demand to the negotiation that spawned it.
type SubDemandOrigin struct {
	RootDemandID    string
	ParentDemandID  string
	ParentChannelID string
	Depth           int // the sub-demand's depth (parent's + 1)
	GapType         string
	CapabilityTags  []string
	NeedCount       int // how many people the gap still needs (0: unknown)
}

// demandText is a demand's text trimmed, or why it cannot be one.
func demandText(text string) (string, error) {
	raw := strings.TrimSpace(text)
	switch {
	case raw == "":
		return "", event.Errorf(ErrDemandEmpty, "the demand text is empty")
	case !utf8.ValidString(raw):
		return "", event.Errorf(ErrDemandInvalid, "the demand text is not valid UTF-8")
	case utf8.RuneCountInString(raw) > MaxDemandRunes:
		return "", event.Errorf(ErrDemandInvalid, "the demand text has %d characters; at most %d are accepted",
			utf8.RuneCountInString(raw), MaxDemandRunes)
	}
	return raw, nil
}

// Submit decides a SubmitDemand on a demand stream (which must be new).
func (d *DemandState) Submit(cmd SubmitDemand) ([]event.Payload, error) {
	raw, err := demandText(cmd.RawInput)
	switch {
	case d.Exists():
		return nil, event.Errorf(ErrDuplicate, "demand %s already exists", cmd.DemandID)
	case err != nil:
		return nil, err
	case cmd.DemandID == "":
		return nil, event.Errorf(ErrDemandInvalid, "no demand id")
	}
	e := &DemandSubmitted{DemandID: cmd.DemandID, UserID: cmd.UserID, RawInput: raw, Clarifies: cmd.Clarifies}
	if o := cmd.Parent; o != nil {
		e.RootDemandID, e.ParentDemandID, e.ParentChannelID = o.RootDemandID, o.ParentDemandID, o.ParentChannelID
		e.RecursionDepth, e.GapType, e.CapabilityTags, e.NeedCount = o.Depth, o.GapType, o.CapabilityTags, o.NeedCount
	}
	return []event.Payload{e}, nil
}

// Understand records prompt 1's understanding; a demand without needs
// (nothing in it maps to a capability) is rejected at once, with what to
// clarify, and fails with TOWOW_DEMAND_001. A sub-demand whose candidates
// were chosen first (smart filtering runs beside its understanding) is
// accepted with it, and gets its channel. Nothing to do (nil, nil) once
// the demand is understood or failed.
func (d *DemandState) Understand(u Understanding) ([]event.Payload, error) {
	if !d.Exists() {
		return nil, event.Errorf(ErrNotFound, "demand not submitted")
	}
	if d.Understanding != nil || d.Failure != nil {
		return nil, nil
	}
	if needs := NeedsOf(u); d.NeedCount > 1 && len(needs) == 1 { // a sub-demand for several people of one gap
		needs[0].Count = min(d.NeedCount, MaxNeedCount)
		u.Needs = needs
	}
	if len(NeedsOf(u)) > 0 && d.FilterDone && len(d.Candidates) > 0 { // a sub-demand filtered first: its channel opens now
		id := ChannelIDFor(d.ID)
		return []event.Payload{u.Understood(d.ID), &DemandAccepted{DemandID: d.ID, ChannelID: id, CandidateCount: len(d.Candidates)}}, nil
	}
	if len(NeedsOf(u)) > 0 {
		return []event.Payload{u.Understood(d.ID)}, nil
	}
	questions := u.Uncertainties
	if len(questions) == 0 {
		questions = []string{UnclearQuestion}
	}
	return append([]event.Payload{u.Understood(d.ID),
		&DemandRejected{DemandID: d.ID, Reason: RejectUnclear, Message: "看不出这项需求需要什么样的协作者",
			Suggestion: UnclearSuggestion, Questions: questions}},
		failed(ErrDemandInvalid, &NegotiationFailed{DemandID: d.ID, Reason: FailureDemandRejected, Suggestion: UnclearSuggestion},
			"the demand names no need a collaborator could meet: rejected as unclear")...), nil
}

// Clarified returns the text of the demand that answers d's rejection with
// the user's clarification: d's text, then the answer. Only a rejected
// demand can be clarified (ErrNothingToClarify), with a non-empty answer
// (ErrDemandEmpty).
func (d *DemandState) Clarified(answer string) (string, error) {
	answer = strings.TrimSpace(answer)
	switch {
	case !d.Exists():
		return "", event.Errorf(ErrNotFound, "no demand")
	case d.Rejection == nil:
		return "", event.Errorf(ErrNothingToClarify, "demand %s was not rejected: nothing to clarify", d.ID)
	case answer == "":
		return "", event.Errorf(ErrDemandEmpty, "the clarification is empty")
	}
	return d.RawInput + "\n补充说明：" + answer, nil
}

// What a user is told when the demand names nobody to ask for.
const (
	UnclearSuggestion = "请具体说明要做什么、需要哪些角色（例如场地、摄影师、餐饮、主持人）和人数，以及地点和时间：在原需求上补充说明（POST /api/v1/demands/{demand_id}/clarify），或重新提交。"
	UnclearQuestion   = "你需要什么样的协作者来完成这件事？"
)

// Stuck fails a demand that still has neither a channel nor a failure at
// its stuck deadline (its understanding or filtering never finished), so a
// parent negotiation waiting for it hears back (TOWOW_DEMAND_005).
func (d *DemandState) Stuck() ([]event.Payload, error) {
	if !d.Exists() || d.ChannelID != "" || d.Failure != nil {
		return nil, nil
	}
	stage := "understanding"
	if d.Understanding != nil {
		stage = "filtering"
	}
	return failed(ErrDemandStuck, &NegotiationFailed{DemandID: d.ID, Reason: FailureStuckTimeout,
		Suggestion: "需求处理长时间没有进展，已自动结束；可以稍后重新提交。"},
		"the demand's "+stage+" had not finished at its stuck deadline"), nil
}

// ModelUnavailableSuggestion is what a user is told when the model, not
// the demand, is why nothing could go on.
const ModelUnavailableSuggestion = "语言模型暂时不可用，这次没能真正理解和处理你的需求；需求本身没有问题，请稍后原样再提交一次。"

// NoCandidatesSuggestion is what a user is told when nobody matched.
const NoCandidatesSuggestion = "没有找到匹配的协作者：可以换一种说法描述需求、补充地点和时间，或放宽要求后重新提交。"

// Filtered records smart filtering's result: with candidates, the demand is
// accepted and gets channelID; without any, it is rejected (no match) and
// fails with TOWOW_FILTER_001. A sub-demand may be filtered before it is
// understood (on its GapUnderstanding): its candidates are recorded, and
// Understand accepts it. Nothing to do once any of that happened.
func (d *DemandState) Filtered(candidates []Candidate, channelID string, totalAgents, durationMS int) ([]event.Payload, error) {
	switch {
	case !d.Exists():
		return nil, event.Errorf(ErrNotFound, "demand not submitted")
	case d.Understanding == nil && !d.IsSub():
		return nil, event.Errorf(ErrInvalidTransition, "demand %s is not understood yet", d.ID)
	case d.ChannelID != "" || d.Failure != nil || d.FilterDone:
		return nil, nil
	}
	done := &FilterCompleted{DemandID: d.ID, CandidatesCount: len(candidates), Candidates: candidates,
		TotalAgents: totalAgents, FilterDurationMS: durationMS}
	if len(candidates) == 0 && d.ModelFailed { // the keyword fallbacks found nobody: not the demand's fault
		return append([]event.Payload{done}, failed(ErrModelUnavailable, &NegotiationFailed{DemandID: d.ID, Reason: FailureModelUnavailable,
			Suggestion: ModelUnavailableSuggestion},
			fmt.Sprintf("no candidate among %d active agents, with the model unavailable for the understanding or the filter", totalAgents))...), nil
	}
	if len(candidates) == 0 {
		var roles []string
		if d.Understanding == nil {
			roles = append(roles, d.GapType)
		} else {
			for _, n := range NeedsOf(d.Understanding.Understanding()) {
				roles = append(roles, n.Role)
			}
		}
		return append([]event.Payload{done,
			&DemandRejected{DemandID: d.ID, Reason: RejectNoMatch, Message: "协作网络中没有人能满足这项需求",
				Suggestion: NoCandidatesSuggestion, UnservedNeeds: roles}},
			failed(ErrNoCandidates, &NegotiationFailed{DemandID: d.ID, Reason: FailureNoCandidates, Suggestion: NoCandidatesSuggestion},
				fmt.Sprintf("smart filtering found no candidate among %d active agents for: %s", totalAgents, strings.Join(roles, ", ")))...), nil
	}
	if d.Understanding == nil { // a sub-demand: accepted once understood
		return []event.Payload{done}, nil
	}
	done.ChannelID = channelID
	return []event.Payload{done, &DemandAccepted{DemandID: d.ID, ChannelID: channelID, CandidateCount: len(candidates)}}, nil
}

// ForkDemandText is a fork's change_demand on its root demand d, as the
// copied history left it: the text its submission carries instead. Only
// before prompt 1 read the old one (the fork point is the submission):
// ErrForkChange after, or for the same text; ErrDemandEmpty or
// ErrDemandInvalid for a text no demand could have.
func ForkDemandText(d *DemandState, text string) (string, error) {
	raw, err := demandText(text)
	switch {
	case err != nil:
		return "", err
	case d.Understanding != nil || d.Rejection != nil || d.Failure != nil || d.ChannelID != "":
		return "", event.Errorf(ErrForkChange, "demand %s was understood by then: fork at its submission to change its text", d.ID)
	case raw == d.RawInput:
		return "", event.Errorf(ErrForkChange, "the text is the demand's own")
	}
	return raw, nil
}

// ClipText flattens s's white space and cuts it to n runes, with an
// ellipsis when cut: a text as a one-line summary shows it (the timeline,
// the understanding prompt's user history). The prompt's input depends on
// it, so a fork reuses recorded answers only while it is unchanged..
func ClipText(s string, n int) string {
	if c, sealed := event.ClipSealed(s, n); sealed {
		return c // clipped once revealed
	}
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
