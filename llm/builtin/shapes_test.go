package builtin

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/llm"
)

// Local copies of the raw reply shapes the brief asks for, decoded with
// DisallowUnknownFields: the replies must have these fields and no others.
type (
	tUnderstand struct {
		SurfaceDemand     string `json:"surface_demand"`
		DeepUnderstanding struct {
			Motivation        string   `json:"motivation"`
			LikelyPreferences []string `json:"likely_preferences"`
			EmotionalContext  string   `json:"emotional_context"`
		} `json:"deep_understanding"`
		CapabilityTags []string `json:"capability_tags"`
		Needs          []struct {
			Role           string   `json:"role"`
			CapabilityTags []string `json:"capability_tags"`
			Count          int      `json:"count"`
		} `json:"needs"`
		Context struct {
			Location          string `json:"location"`
			ExpectedAttendees int    `json:"expected_attendees"`
			Date              string `json:"date"`
			Budget            string `json:"budget"`
			Urgency           string `json:"urgency"`
		} `json:"context"`
		Uncertainties []string `json:"uncertainties"`
		Confidence    string   `json:"confidence"`
	}
	tCandidate struct {
		AgentID     string  `json:"agent_id"`
		DisplayName string  `json:"display_name"`
		Reason      string  `json:"reason"`
		MatchType   string  `json:"match_type"`
		Confidence  float64 `json:"confidence"`
	}
	tFilter struct {
		Analysis          string       `json:"analysis"`
		DefinitelyRelated []tCandidate `json:"definitely_related"`
		PossiblyRelated   []tCandidate `json:"possibly_related"`
		TotalCandidates   int          `json:"total_candidates"`
	}
	tOffer struct {
		Decision      string   `json:"decision"`
		Contribution  string   `json:"contribution"`
		Conditions    []string `json:"conditions"`
		Reasoning     string   `json:"reasoning"`
		DeclineReason string   `json:"decline_reason"`
		Confidence    int      `json:"confidence"`
	}
	tAssignment struct {
		AgentID        string   `json:"agent_id"`
		DisplayName    string   `json:"display_name"`
		Role           string   `json:"role"`
		Need           string   `json:"need"`
		Responsibility string   `json:"responsibility"`
		Dependencies   []string `json:"dependencies"`
		Notes          string   `json:"notes"`
		// ConditionsAccepted is required (see checkReply).
		ConditionsAccepted *bool `json:"conditions_accepted"`
	}
	tTimeline struct {
		StartDate  string `json:"start_date"`
		Milestones []struct {
			Name        string `json:"name"`
			Date        string `json:"date"`
			Deliverable string `json:"deliverable"`
		} `json:"milestones"`
	}
	tProposal struct {
		Summary     string        `json:"summary"`
		Objective   string        `json:"objective"`
		Assignments []tAssignment `json:"assignments"`
		Alternates  []tAssignment `json:"alternates"`
		Timeline    tTimeline     `json:"timeline"`
		Rationale   string        `json:"rationale"`
		Gaps        []string      `json:"gaps"`
		Confidence  string        `json:"confidence"`

		SuccessCriteria []string `json:"success_criteria"`
		Risks           []string `json:"risks"`
		OpenQuestions   []string `json:"open_questions"`
	}
	tAdjusted struct {
		tProposal
		AdjustmentSummary struct {
			Round       int `json:"round"`
			ChangesMade []struct {
				Aspect string `json:"aspect"`
				Before string `json:"before"`
				After  string `json:"after"`
				Reason string `json:"reason"`
			} `json:"changes_made"`
			RequestsAddressed []string `json:"requests_addressed"`
			RequestsDeclined  []struct {
				Request string `json:"request"`
				Reason  string `json:"reason"`
			} `json:"requests_declined"`
		} `json:"adjustment_summary"`
	}
	tFeedback struct {
		FeedbackType      string   `json:"feedback_type"`
		Reasoning         string   `json:"reasoning"`
		AdjustmentRequest string   `json:"adjustment_request"`
		Concerns          []string `json:"concerns"`
		Confidence        int      `json:"confidence"`
		ProposedChanges   []struct {
			Field  string `json:"field"`
			Value  string `json:"value"`
			Reason string `json:"reason"`
		} `json:"proposed_changes"`
	}
	tGaps struct {
		IsComplete bool   `json:"is_complete"`
		Analysis   string `json:"analysis"`
		Gaps       []struct {
			GapType                 string   `json:"gap_type"`
			Importance              int      `json:"importance"`
			Reason                  string   `json:"reason"`
			SuggestedCapabilityTags []string `json:"suggested_capability_tags"`
			Description             string   `json:"description"`
		} `json:"gaps"`
	}
	tRecursion struct {
		ShouldRecurse      bool   `json:"should_recurse"`
		Condition1Met      bool   `json:"condition_1_met"`
		Condition1Analysis string `json:"condition_1_analysis"`
		Condition2Met      bool   `json:"condition_2_met"`
		Condition2Analysis string `json:"condition_2_analysis"`
		Condition3Met      bool   `json:"condition_3_met"`
		Condition3Analysis string `json:"condition_3_analysis"`
		SubDemands         []struct {
			GapType        string   `json:"gap_type"`
			Description    string   `json:"description"`
			CapabilityTags []string `json:"capability_tags"`
			Priority       string   `json:"priority"`
		} `json:"sub_demands"`
	}
	tCompromise struct {
		Summary     string        `json:"summary"`
		Type        string        `json:"type"`
		Assignments []tAssignment `json:"assignments"`
		Compromises []struct {
			Issue      string `json:"issue"`
			Resolution string `json:"resolution"`
			Rationale  string `json:"rationale"`
		} `json:"compromises"`
		Unresolved  []string `json:"unresolved"`
		Suggestions []string `json:"suggestions"`
		Confidence  string   `json:"confidence"`
	}
	tConverse struct {
		Thought    string                    `json:"thought"`
		Tool       string                    `json:"tool"`
		Args       *workflow.DecisionPayload `json:"args"`
		Confidence float64                   `json:"confidence"`
		Reply      string                    `json:"reply"`
	}
	tTask struct {
		Status  string `json:"status"`
		Summary string `json:"summary"`
		Problem string `json:"problem"`
	}
)

// topKeys are the exact top-level fields of each reply.
var topKeys = map[llm.PromptKey][]string{
	llm.PromptUnderstand: {"surface_demand", "deep_understanding", "capability_tags", "needs", "context", "uncertainties", "confidence"},
	llm.PromptFilter:     {"analysis", "definitely_related", "possibly_related", "total_candidates"},
	llm.PromptOffer:      {"decision", "contribution", "conditions", "reasoning", "decline_reason", "confidence"},
	llm.PromptAggregate: {"summary", "objective", "assignments", "timeline", "rationale", "gaps", "confidence",
		"success_criteria", "risks"}, // + open_questions when there are some
	llm.PromptFeedback: {"feedback_type", "reasoning", "adjustment_request", "concerns", "confidence"}, // + proposed_changes when negotiating
	llm.PromptAdjust: {"summary", "objective", "assignments", "timeline", "rationale", "gaps", "confidence",
		"success_criteria", "risks", "adjustment_summary"},
	llm.PromptGaps: {"is_complete", "analysis", "gaps"},
	llm.PromptRecursion: {"should_recurse", "condition_1_met", "condition_1_analysis", "condition_2_met",
		"condition_2_analysis", "condition_3_met", "condition_3_analysis", "sub_demands"},
	llm.PromptCompromise: {"summary", "type", "assignments", "compromises", "unresolved", "suggestions", "confidence"},
	llm.PromptTask:       {"status", "summary", "problem"},
	llm.PromptConverse:   {"thought", "tool", "args", "confidence"}, // or converseReplyKeys
}

// converseReplyKeys are the fields of a conversation step that replies.
var converseReplyKeys = []string{"thought", "reply"}

// allRequests runs the test demands and returns requests for every key,
// compromise and task requests included.
func allRequests(t *testing.T) map[llm.PromptKey][]llm.Request {
	e := newTestEngine(t, testProfiles(60))
	var last negotiation
	var tasks []llm.Request
	for _, raw := range testDemands {
		n := e.run(raw)
		if n.outcome != "no_participants" && n.outcome != "failed" {
			last = n
			tasks = append(tasks, taskRequests(e.profiles, n)...)
		}
	}
	var offers []llm.OfferView
	for _, id := range last.order {
		o := last.offers[id]
		offers = append(offers, llm.OfferView{AgentID: id, Decision: o.Decision, Contribution: o.Contribution,
			Conditions: o.Conditions, Reasoning: orDefault(o.DeclineReason, o.Reasoning)})
	}
	gs := last.gaps.Gaps
	e.requests[llm.PromptCompromise] = []llm.Request{
		{Key: llm.PromptCompromise, Input: &llm.CompromiseInput{Demand: last.u, RawInput: last.raw,
			Available: last.final.Assignments, Offers: offers, Gaps: gs, Reason: "partial_agreement"}},
		{Key: llm.PromptCompromise, Input: &llm.CompromiseInput{Demand: last.u, RawInput: last.raw,
			Offers: offers, Reason: "no_offers"}},
		{Key: llm.PromptCompromise, Input: &llm.CompromiseInput{Demand: last.u, RawInput: last.raw, Reason: "no_participants"}},
	}
	e.requests[llm.PromptTask] = tasks
	e.requests[llm.PromptConverse] = converseRequests()
	for _, k := range llm.PromptKeys() {
		if len(e.requests[k]) == 0 {
			t.Fatalf("no request for %s", k)
		}
	}
	return e.requests
}

func TestRepliesHaveTheRawShape(t *testing.T) {
	p := New()
	for key, reqs := range allRequests(t) {
		for i, req := range reqs {
			if i >= 40 {
				break
			}
			resp, err := p.Complete(context.Background(), req)
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			body := []byte(extractJSON(resp.Text))
			var top map[string]json.RawMessage
			if err := json.Unmarshal(body, &top); err != nil {
				t.Fatalf("%s: not a JSON object: %v\n%s", key, err, resp.Text)
			}
			var got []string
			for k := range top {
				switch {
				case k == "alternates" && (key == llm.PromptAggregate || key == llm.PromptAdjust): // named only when there are some
				case k == "proposed_changes" && key == llm.PromptFeedback: // only when negotiating
				case k == "open_questions" && key == llm.PromptAggregate: // only when the demand leaves some
				default:
					got = append(got, k)
				}
			}
			want := slices.Clone(topKeys[key])
			if _, ok := top["reply"]; ok && key == llm.PromptConverse {
				want = slices.Clone(converseReplyKeys)
			}
			sort.Strings(got)
			sort.Strings(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%s: fields %v, want %v", key, got, want)
			}
			checkReply(t, key, body)
		}
	}
}

// checkReply decodes a reply strictly and checks its values.
func checkReply(t *testing.T, key llm.PromptKey, body []byte) {
	t.Helper()
	strict := func(v any) {
		t.Helper()
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			t.Fatalf("%s: %v\n%s", key, err, body)
		}
	}
	oneOf := func(field, v string, allowed ...string) {
		t.Helper()
		if !slices.Contains(allowed, v) {
			t.Errorf("%s: %s = %q, want one of %v", key, field, v, allowed)
		}
	}
	switch key {
	case llm.PromptUnderstand:
		var v tUnderstand
		strict(&v)
		oneOf("confidence", v.Confidence, "high", "medium", "low")
		oneOf("context.urgency", v.Context.Urgency, "high", "normal", "low")
		if v.SurfaceDemand == "" || len(v.CapabilityTags) == 0 {
			t.Errorf("%s: empty understanding %s", key, body)
		}
	case llm.PromptFilter:
		var v tFilter
		strict(&v)
		if v.TotalCandidates != len(v.DefinitelyRelated)+len(v.PossiblyRelated) {
			t.Errorf("%s: total_candidates %d", key, v.TotalCandidates)
		}
		for _, c := range append(v.DefinitelyRelated, v.PossiblyRelated...) {
			oneOf("match_type", c.MatchType, "explicit", "inferred")
			if c.Confidence <= 0 || c.Confidence > 1 || c.Reason == "" || c.AgentID == "" {
				t.Errorf("%s: bad candidate %+v", key, c)
			}
		}
	case llm.PromptOffer:
		var v tOffer
		strict(&v)
		oneOf("decision", v.Decision, "participate", "decline", "conditional")
		if (v.Decision == "conditional") != (len(v.Conditions) > 0) || (v.Decision == "decline") != (v.DeclineReason != "") {
			t.Errorf("%s: inconsistent offer %s", key, body)
		}
		if v.Decision != "decline" && !strings.HasPrefix(v.Contribution, "作为") {
			t.Errorf("%s: contribution %q", key, v.Contribution)
		}
		if v.Confidence < 0 || v.Confidence > 100 {
			t.Errorf("%s: confidence %d", key, v.Confidence)
		}
	case llm.PromptAggregate:
		var v tProposal
		strict(&v)
		oneOf("confidence", v.Confidence, "high", "medium", "low")
		if v.Timeline.StartDate == "" || len(v.Timeline.Milestones) == 0 {
			t.Errorf("%s: empty timeline", key)
		}
		if len(v.SuccessCriteria) == 0 || len(v.Risks) == 0 {
			t.Errorf("%s: success criteria %q, risks %q", key, v.SuccessCriteria, v.Risks)
		}
		for _, a := range v.Assignments {
			if a.ConditionsAccepted == nil {
				t.Errorf("%s: %s without conditions_accepted", key, a.AgentID)
			}
		}
	case llm.PromptFeedback:
		var v tFeedback
		strict(&v)
		oneOf("feedback_type", v.FeedbackType, "accept", "negotiate", "withdraw")
		if (v.FeedbackType == "negotiate") != (v.AdjustmentRequest != "") || (v.FeedbackType == "negotiate") != (len(v.ProposedChanges) > 0) {
			t.Errorf("%s: adjustment_request %q, %d proposed changes with %s", key, v.AdjustmentRequest, len(v.ProposedChanges), v.FeedbackType)
		}
	case llm.PromptAdjust:
		var v tAdjusted
		strict(&v)
		if v.AdjustmentSummary.Round < 2 {
			t.Errorf("%s: round %d", key, v.AdjustmentSummary.Round)
		}
	case llm.PromptGaps:
		var v tGaps
		strict(&v)
		if v.IsComplete != (len(v.Gaps) == 0) {
			t.Errorf("%s: is_complete %v with %d gaps", key, v.IsComplete, len(v.Gaps))
		}
		for _, g := range v.Gaps {
			if g.Importance < 0 || g.Importance > 100 || g.GapType == "" || len(g.SuggestedCapabilityTags) == 0 || g.Description == "" {
				t.Errorf("%s: bad gap %+v", key, g)
			}
		}
	case llm.PromptRecursion:
		var v tRecursion
		strict(&v)
		if len(v.SubDemands) > 3 || (!v.ShouldRecurse && len(v.SubDemands) > 0) {
			t.Errorf("%s: %d sub-demands, should_recurse %v", key, len(v.SubDemands), v.ShouldRecurse)
		}
		for _, s := range v.SubDemands {
			oneOf("priority", s.Priority, "high", "medium")
		}
	case llm.PromptCompromise:
		var v tCompromise
		strict(&v)
		oneOf("type", v.Type, "compromise")
		oneOf("confidence", v.Confidence, "low", "medium")
		if len(v.Suggestions) == 0 || v.Summary == "" {
			t.Errorf("%s: %s", key, body)
		}
	case llm.PromptConverse:
		var v tConverse
		strict(&v)
		if v.Thought == "" || (v.Tool == "") == (v.Reply == "") || (v.Tool != "" && (v.Args == nil || v.Confidence <= 0 || v.Confidence > 1)) {
			t.Errorf("%s: inconsistent step %s", key, body)
		}
		if v.Tool != "" {
			oneOf("tool", v.Tool, workflow.ConversationTools()...)
		}
	case llm.PromptTask:
		var v tTask
		strict(&v)
		oneOf("status", v.Status, "done", "problem")
		if v.Summary == "" || (v.Status == "done") != (v.Problem == "") ||
			(v.Status == "done") != strings.HasPrefix(v.Summary, "已完成：") {
			t.Errorf("%s: inconsistent report %s", key, body)
		}
	}
}

func TestDeterministic(t *testing.T) {
	reqs := allRequests(t)
	for key, list := range reqs {
		for i, req := range list {
			if i >= 20 {
				break
			}
			a, err1 := New().Complete(context.Background(), req)
			b, err2 := New().Complete(context.Background(), req)
			if err1 != nil || err2 != nil || a != b {
				t.Fatalf("%s: two answers differ:\n%s\n%s", key, a.Text, b.Text)
			}
		}
	}
	// A whole negotiation replays byte for byte.
	e1, e2 := newTestEngine(t, testProfiles(60)), newTestEngine(t, testProfiles(60))
	for _, raw := range testDemands[:4] {
		e1.run(raw)
		e2.run(raw)
	}
	if !slices.Equal(e1.texts, e2.texts) {
		t.Fatal("the same negotiations gave different replies")
	}
}

func TestReplyFormats(t *testing.T) {
	e := newTestEngine(t, testProfiles(60))
	for _, raw := range append(slices.Clone(testDemands), generatedDemands()...) {
		e.run(raw)
	}
	var plain, fenced, preamble int
	for _, text := range e.texts {
		switch {
		case strings.HasPrefix(text, "{"):
			plain++
		case strings.HasPrefix(text, "```json\n") && strings.HasSuffix(text, "\n```"):
			fenced++
		default:
			preamble++
			if first, _, _ := strings.Cut(text, "\n"); strings.Contains(first, "{") || !strings.HasPrefix(text[len(first)+1:], "{") {
				t.Errorf("bad preamble reply: %q", text)
			}
		}
		if !json.Valid([]byte(extractJSON(text))) {
			t.Errorf("invalid JSON: %s", text)
		}
	}
	n := float64(len(e.texts))
	t.Logf("reply formats over %d replies: plain %.2f, fenced %.2f, preamble %.2f", len(e.texts),
		float64(plain)/n, float64(fenced)/n, float64(preamble)/n)
	if r := float64(plain) / n; r < 0.62 || r > 0.78 {
		t.Errorf("plain share %.2f, want about 0.70", r)
	}
	if r := float64(fenced) / n; r < 0.14 || r > 0.26 {
		t.Errorf("fenced share %.2f, want about 0.20", r)
	}
	if r := float64(preamble) / n; r < 0.05 || r > 0.15 {
		t.Errorf("preamble share %.2f, want about 0.10", r)
	}
}

// plain encodes a reply as the provider does and decodes it strictly into
// T, the test's own copy of the reply's shape, so that the tests read the
// reply as a model's caller would.
func plain[T any](t *testing.T, reply any) T {
	t.Helper()
	b, err := json.Marshal(reply)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var v T
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%T: %v\n%s", v, err, b)
	}
	return v
}
