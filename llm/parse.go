package llm

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/towow/towow/domain"
)

// Parsers: one per prompt key. Each finds the JSON object of the reply,
// decodes it leniently into the prompt's reply shape (replies.go) and
// validates it into the typed result of types.go (prompts 1, 3 and 5: the
// domain's Understanding, OfferAnswer and FeedbackAnswer). A reply that has
// no JSON object, or whose content is unusable (an unknown enum, no valid
// agent left, ...), is an error wrapping errInvalidReply: the Client then
// records a parse_error and uses the fallback.

// errInvalidReply marks a reply that did not parse or validate.
var errInvalidReply = errors.New("invalid reply")

// invalid returns an errInvalidReply with a reason.
func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errInvalidReply, fmt.Sprintf(format, args...))
}

// decode extracts the reply's JSON object into raw.
func decode(text string, raw any, keys ...string) error {
	if err := decodeReply(text, raw, keys...); err != nil {
		return fmt.Errorf("%w: %w", errInvalidReply, err)
	}
	return nil
}

// agentIndex resolves agent ids named by a reply against the agents of the
// input: exactly (after trimming), else case-insensitively when that is
// unambiguous.
type agentIndex struct {
	names   map[string]string // id → display name
	byLower map[string]string // lower-case id → id ("" if ambiguous)
}

// newAgentIndex returns an empty index.
func newAgentIndex() *agentIndex {
	return &agentIndex{names: map[string]string{}, byLower: map[string]string{}}
}

// add registers an agent (the first display name given wins).
func (x *agentIndex) add(id, name string) {
	id = strings.TrimSpace(id)
	if id == "" {
		return
	}
	if old, ok := x.names[id]; !ok || old == "" {
		x.names[id] = strings.TrimSpace(name)
	}
	low := strings.ToLower(id)
	if prev, ok := x.byLower[low]; ok && prev != id {
		x.byLower[low] = ""
	} else {
		x.byLower[low] = id
	}
}

// resolve returns the input's id for s.
func (x *agentIndex) resolve(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if _, ok := x.names[s]; ok {
		return s, true
	}
	if id := x.byLower[strings.ToLower(s)]; id != "" {
		return id, true
	}
	return "", false
}

// empty reports whether the index has no agent.
func (x *agentIndex) empty() bool { return len(x.names) == 0 }

// ---- 1 需求理解

// parseUnderstand parses prompt 1's reply. surface_demand is required; an
// absent confidence is medium; no capability tags means the fallback's tags.
func parseUnderstand(text string, in *UnderstandInput) (domain.Understanding, error) {
	var raw UnderstandReply
	if err := decode(text, &raw, "surface_demand", "capability_tags", "deep_understanding"); err != nil {
		return domain.Understanding{}, err
	}
	out := domain.Understanding{SurfaceDemand: clip(string(raw.SurfaceDemand), maxTextRunes)}
	if out.SurfaceDemand == "" {
		return domain.Understanding{}, invalid("surface_demand is empty")
	}
	conf, ok := confidenceLevel(raw.Confidence, domain.ConfidenceMedium)
	if !ok {
		return domain.Understanding{}, invalid("unknown confidence %q", raw.Confidence.Str)
	}
	out.Confidence = conf
	deep := raw.DeepUnderstanding.V
	out.DeepUnderstanding = domain.DeepUnderstanding{
		Motivation:        clip(string(deep.Motivation), maxTextRunes),
		LikelyPreferences: cleanList(deep.LikelyPreferences, maxTextRunes, maxListItems),
		EmotionalContext:  clip(string(deep.EmotionalContext), maxTextRunes),
	}
	out.CapabilityTags = cleanList(raw.CapabilityTags, maxShortRunes, maxTagItems)
	needs := make([]domain.Need, 0, len(raw.Needs))
	for _, n := range raw.Needs {
		count := 1
		if n.Count.IsNum {
			count = int(math.Round(math.Max(1, math.Min(domain.MaxNeedCount, n.Count.Num))))
		}
		needs = append(needs, domain.Need{Role: string(n.Role), CapabilityTags: cleanList(n.CapabilityTags, maxShortRunes, maxTagItems),
			Count: count})
	}
	out.Needs = domain.NormalizeNeeds(needs)
	switch {
	case len(out.CapabilityTags) == 0 && len(out.Needs) > 0:
		out.CapabilityTags = domain.NeedTags(out.Needs)
	case len(out.CapabilityTags) == 0 && in.GapType == "" && len(in.CapabilityTags) == 0:
		// Neither tags nor needs: the model found nothing to ask anyone
		// for (an unclear or impossible demand) unless the words say
		// otherwise; the engine rejects a demand without needs.
		out.CapabilityTags = matchKeywordTags(in.RawInput)
	case len(out.CapabilityTags) == 0:
		out.CapabilityTags = fallbackTags(in)
	}
	cx := raw.Context.V
	out.Context = domain.DemandContext{
		Location: clip(string(cx.Location), maxShortRunes),
		Date:     clip(string(cx.Date), maxShortRunes),
		Budget:   clip(string(cx.Budget), maxShortRunes),
	}
	if u := domain.Urgency(strings.ToLower(strings.TrimSpace(string(cx.Urgency)))); u.Valid() {
		out.Context.Urgency = u // anything else: absent, which means normal
	}
	if cx.ExpectedAttendees.IsNum {
		out.Context.ExpectedAttendees = int(math.Round(math.Max(0, math.Min(maxAttendeesCap, cx.ExpectedAttendees.Num))))
	}
	out.Uncertainties = cleanList(raw.Uncertainties, maxTextRunes, maxListItems)
	return out, nil
}

// ---- 2 智能筛选

// Default filter confidences when a candidate gives none.
const (
	defaultDefinitelyConfidence = 0.8
	defaultPossiblyConfidence   = 0.5
	defaultMaxCandidates        = 20
)

// maxCandidates returns the input's bound, or the default (20).
func maxCandidates(in *FilterInput) int {
	if in.MaxCandidates > 0 {
		return in.MaxCandidates
	}
	return defaultMaxCandidates
}

// parseFilter parses prompt 2's reply: definitely related first, then
// possibly related, unknown/excluded/duplicate agents dropped, at most
// MaxCandidates. A reply that named candidates of which none is valid is
// invalid (the model hallucinated ids); one that named none is valid.
func parseFilter(text string, in *FilterInput) (FilterResult, error) {
	var raw FilterReply
	if err := decode(text, &raw, "definitely_related", "possibly_related", "analysis"); err != nil {
		return FilterResult{}, err
	}
	idx := newAgentIndex()
	for _, p := range in.Profiles {
		idx.add(p.AgentID, p.UserName)
	}
	excluded := map[string]bool{}
	for _, id := range in.Exclude {
		excluded[strings.TrimSpace(id)] = true
	}
	out := FilterResult{Analysis: clip(string(raw.Analysis), maxTextRunes), Candidates: []Candidate{}}
	seen := map[string]bool{}
	limit := maxCandidates(in)
	groups := []struct {
		list       []ReplyCandidate
		definitely bool
	}{{raw.DefinitelyRelated, true}, {raw.PossiblyRelated, false}}
	for _, g := range groups {
		for _, rc := range g.list {
			id, ok := idx.resolve(string(rc.AgentID))
			if !ok || excluded[id] || seen[id] {
				continue
			}
			mt := "inferred"
			if g.definitely {
				mt = "explicit"
			}
			if s := string(rc.MatchType); s != "" {
				if mt, ok = lookupEnum(matchTypes, s); !ok {
					return FilterResult{}, invalid("unknown match_type %q", s)
				}
			}
			def := defaultPossiblyConfidence
			if g.definitely {
				def = defaultDefinitelyConfidence
			}
			name := idx.names[id]
			if name == "" {
				name = clip(string(rc.DisplayName), maxShortRunes)
			}
			seen[id] = true
			if len(out.Candidates) < limit {
				out.Candidates = append(out.Candidates, Candidate{
					AgentID:     id,
					DisplayName: name,
					Reason:      clip(string(rc.Reason), maxTextRunes),
					MatchType:   mt,
					Confidence:  confidenceFraction(rc.Confidence, def),
					Definitely:  g.definitely,
				})
			}
		}
	}
	if named := len(raw.DefinitelyRelated) + len(raw.PossiblyRelated); named > 0 && len(out.Candidates) == 0 {
		return FilterResult{}, invalid("none of the %d candidates is a known, allowed agent", named)
	}
	return out, nil
}

// ---- 3 响应生成

// parseOffer parses prompt 3's reply. The decision is required. Conditions
// are kept only for conditional (a conditional offer without conditions is
// a participate); decline_reason only for decline (reasoning if absent); a
// participate/conditional offer needs a contribution (reasoning if absent).
func parseOffer(text string, _ *OfferInput) (domain.OfferAnswer, error) {
	var raw OfferReply
	if err := decode(text, &raw, "decision"); err != nil {
		return domain.OfferAnswer{}, err
	}
	decision, ok := lookupEnum(offerDecisions, string(raw.Decision))
	if !ok {
		return domain.OfferAnswer{}, invalid("unknown decision %q", raw.Decision)
	}
	out := domain.OfferAnswer{
		Decision:     decision,
		Contribution: clip(string(raw.Contribution), maxTextRunes),
		Reasoning:    clip(string(raw.Reasoning), maxTextRunes),
		Confidence:   confidencePercent(raw.Confidence),
	}
	switch decision {
	case domain.OfferDecisionDecline:
		out.DeclineReason = clip(string(raw.DeclineReason), maxTextRunes)
		if out.DeclineReason == "" {
			out.DeclineReason = out.Reasoning
		}
	default:
		if decision == domain.OfferDecisionConditional {
			out.Conditions = cleanList(raw.Conditions, maxTextRunes, maxListItems)
			if len(out.Conditions) == 0 {
				out.Decision = domain.OfferDecisionParticipate
			}
		}
		if out.Contribution == "" {
			out.Contribution = out.Reasoning
		}
		if out.Contribution == "" {
			return domain.OfferAnswer{}, invalid("%s without contribution", decision)
		}
	}
	return out, nil
}
