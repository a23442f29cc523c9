package llm

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// Validation invariants of the typed results. Each check returns the
// violations found (empty when the result is valid). They hold for every
// successful parse and for every fallback.

type problems []string

func (p *problems) add(cond bool, msg string) {
	if !cond {
		*p = append(*p, msg)
	}
}

// cleanString reports whether s is trimmed, valid UTF-8 and at most n runes.
func cleanString(s string, n int) bool {
	return utf8.ValidString(s) && strings.TrimSpace(s) == s && utf8.RuneCountInString(s) <= n
}

func cleanStrings(list []string, n int) bool {
	for i, s := range list {
		if s == "" || !cleanString(s, n) || slices.Contains(list[:i], s) {
			return false
		}
	}
	return true
}

func validLevel(c negotiation.Confidence) bool {
	return c == negotiation.ConfidenceHigh || c == negotiation.ConfidenceMedium || c == negotiation.ConfidenceLow
}

func checkUnderstanding(_ *UnderstandInput, out negotiation.Understanding) problems {
	var p problems
	p.add(out.SurfaceDemand != "" && cleanString(out.SurfaceDemand, maxTextRunes), "surface_demand empty or unclean")
	p.add(validLevel(out.Confidence), "confidence not an enum value")
	p.add(len(out.CapabilityTags) > 0 && len(out.CapabilityTags) <= maxTagItems && cleanStrings(out.CapabilityTags, maxShortRunes), "capability tags")
	p.add(out.Context.ExpectedAttendees >= 0 && out.Context.ExpectedAttendees <= maxAttendeesCap, "attendees out of range")
	p.add(cleanStrings(out.Uncertainties, maxTextRunes) && cleanStrings(out.DeepUnderstanding.LikelyPreferences, maxTextRunes), "lists unclean")
	return p
}

func checkFilter(in *FilterInput, out FilterResult) problems {
	var p problems
	known := map[string]bool{}
	for _, pr := range in.Profiles {
		known[pr.AgentID] = true
	}
	p.add(out.Candidates != nil, "candidates nil")
	p.add(len(out.Candidates) <= maxCandidates(in), "too many candidates")
	seen := map[string]bool{}
	possibly := false
	for _, c := range out.Candidates {
		p.add(known[c.AgentID], "unknown agent "+c.AgentID)
		p.add(!slices.Contains(in.Exclude, c.AgentID), "excluded agent "+c.AgentID)
		p.add(!seen[c.AgentID], "duplicate agent "+c.AgentID)
		seen[c.AgentID] = true
		p.add(c.MatchType == "explicit" || c.MatchType == "inferred", "match type "+c.MatchType)
		p.add(c.Confidence >= 0 && c.Confidence <= 1, "confidence out of 0..1")
		p.add(!(possibly && c.Definitely), "definitely after possibly")
		possibly = possibly || !c.Definitely
		p.add(cleanString(c.Reason, maxTextRunes), "reason unclean")
	}
	return p
}

func checkOffer(_ *OfferInput, out negotiation.OfferAnswer) problems {
	var p problems
	switch out.Decision {
	case negotiation.OfferDecisionParticipate, negotiation.OfferDecisionConditional, negotiation.OfferDecisionDecline,
		negotiation.OfferDecisionNoAnswer: // (no answer: the fallback's only)
	default:
		p.add(false, "decision "+string(out.Decision))
	}
	p.add((len(out.Conditions) > 0) == (out.Decision == negotiation.OfferDecisionConditional), "conditions iff conditional")
	p.add(out.DeclineReason == "" || out.Decision == negotiation.OfferDecisionDecline, "decline_reason on a non-decline")
	p.add(!out.Decision.Participates() || out.Contribution != "", "no contribution")
	p.add(out.Confidence >= 0 && out.Confidence <= 100, "confidence out of range")
	p.add(cleanStrings(out.Conditions, maxTextRunes) && cleanString(out.Contribution, maxTextRunes), "strings unclean")
	return p
}

// checkProposal checks a proposal of the given type assigning only agents
// of allowed (at least one when allowed is not empty and requireOne).
func checkProposal(out ProposalResult, typ negotiation.ProposalType, allowed []string, requireOne bool) problems {
	var p problems
	pr := out.Proposal
	p.add(pr.Type == typ, "type "+string(pr.Type))
	p.add(pr.ProposalID == "" && pr.DemandID == "" && pr.Version == 0 && pr.CreatedAt.IsZero(), "engine fields set")
	p.add(pr.Summary != "" && cleanString(pr.Summary, maxTextRunes), "summary")
	p.add(validLevel(pr.Confidence), "confidence "+string(pr.Confidence))
	p.add(typ != negotiation.ProposalTypeCompromise || pr.Confidence != negotiation.ConfidenceHigh, "compromise with high confidence")
	p.add(pr.Assignments != nil, "assignments nil")
	seen := map[string]bool{}
	for _, a := range pr.Assignments {
		p.add(slices.Contains(allowed, a.AgentID), "agent not allowed: "+a.AgentID)
		p.add(!seen[a.AgentID], "duplicate assignment "+a.AgentID)
		seen[a.AgentID] = true
		p.add(a.Role != "", "empty role")
	}
	p.add(!requireOne || len(allowed) == 0 || len(pr.Assignments) > 0, "no assignment")
	return p
}

func offerIDs(offers []OfferView, skipDecline bool) []string {
	var ids []string
	for _, o := range offers {
		if !skipDecline || o.Decision != negotiation.OfferDecisionDecline {
			ids = append(ids, o.AgentID)
		}
	}
	return ids
}

func checkAggregate(in *AggregateInput, out ProposalResult) problems {
	return checkProposal(out, negotiation.ProposalTypeNormal, offerIDs(in.Offers, true), true)
}

func checkAdjust(in *AdjustInput, out ProposalResult) problems {
	p := checkProposal(out, negotiation.ProposalTypeNormal, offerIDs(in.Participants, false), false)
	s := out.Proposal.AdjustmentSummary
	p.add(s != nil && s.Round == in.Round, "adjustment summary missing or wrong round")
	return p
}

func checkCompromise(in *CompromiseInput, out ProposalResult) problems {
	allowed := offerIDs(in.Offers, true)
	for _, a := range in.Available {
		allowed = append(allowed, a.AgentID)
	}
	return checkProposal(out, negotiation.ProposalTypeCompromise, allowed, false)
}

func checkFeedback(_ *FeedbackInput, out negotiation.FeedbackAnswer) problems {
	var p problems
	switch out.FeedbackType {
	case negotiation.FeedbackAccept, negotiation.FeedbackNegotiate, negotiation.FeedbackWithdraw, negotiation.FeedbackReject,
		negotiation.FeedbackNoAnswer: // (no answer: the fallback's only)
	default:
		p.add(false, "feedback type "+string(out.FeedbackType))
	}
	p.add((out.AdjustmentRequest != "") == (out.FeedbackType == negotiation.FeedbackNegotiate), "adjustment_request iff negotiate")
	p.add(out.Confidence >= 0 && out.Confidence <= 100, "confidence out of range")
	p.add(cleanStrings(out.Concerns, maxTextRunes), "concerns unclean")
	return p
}

func checkGaps(_ *GapInput, out GapResult) problems {
	var p problems
	p.add(out.Gaps != nil && len(out.Gaps) <= maxGaps, "gaps nil or too many")
	p.add(len(out.Gaps) > 0 || out.IsComplete, "incomplete without gaps")
	seen := map[string]bool{}
	for _, g := range out.Gaps {
		p.add(g.GapType != "" && !seen[g.GapType] && cleanString(g.GapType, maxShortRunes), "gap type")
		seen[g.GapType] = true
		p.add(g.Importance >= 0 && g.Importance <= 100, "importance out of range")
	}
	return p
}

func checkRecursion(in *RecursionInput, out RecursionResult) problems {
	var p problems
	p.add(out.SubDemands != nil && len(out.SubDemands) <= maxSubDemands, "sub-demands nil or too many")
	p.add(out.ShouldRecurse == (len(out.SubDemands) > 0), "should_recurse iff sub-demands")
	p.add(!(in.MaxDepth > 0 && in.Depth >= in.MaxDepth && out.ShouldRecurse), "recursing at the depth limit")
	seen := map[string]bool{}
	for _, sd := range out.SubDemands {
		known := len(in.Gaps) == 0
		for _, g := range in.Gaps {
			known = known || g.GapType == sd.GapType
		}
		p.add(known && sd.GapType != "" && !seen[sd.GapType], "sub-demand gap "+sd.GapType)
		seen[sd.GapType] = true
		p.add(sd.Demand.Description != "" && len(sd.Demand.CapabilityTags) > 0, "sub-demand without description or tags")
		p.add(slices.Contains([]string{"high", "medium", "low"}, sd.Demand.Priority), "priority "+sd.Demand.Priority)
	}
	return p
}

func checkTask(_ *TaskInput, out workflow.TaskAnswer) problems {
	var p problems
	p.add(out.Valid() == nil, "answer not valid")
	p.add(out.Problem == "" || out.Status == workflow.TaskProblem, "problem on a done task")
	p.add(cleanString(out.Summary, maxTextRunes) && cleanString(out.Problem, maxTextRunes), "strings unclean")
	return p
}

func checkConverse(_ *ConverseInput, out workflow.AgentStep) problems {
	var p problems
	p.add(out.Tool == "" || slices.Contains(workflow.ConversationTools(), out.Tool), "unknown tool")
	p.add((out.Tool == "") != (out.Reply == ""), "a step needs a tool or a reply, not both or neither")
	p.add(out.Confidence >= 0 && out.Confidence <= 1, "confidence out of 0-1")
	p.add(out.Tool != workflow.ToolAskUser || out.Args.Reason != "", "ask_user without a question")
	p.add(out.Tool != "" || reflect.DeepEqual(out.Args, workflow.DecisionPayload{}), "arguments on a reply")
	p.add(cleanString(out.Thought, maxTextRunes) && cleanString(out.Reply, maxTextRunes) &&
		cleanString(out.Args.Reason, maxTextRunes), "strings unclean")
	p.add(cleanStrings(out.Args.After, maxReplyBytes) && cleanStrings(out.Args.Before, maxReplyBytes), "after/before unclean")
	return p
}
