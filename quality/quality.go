// Package quality scores negotiations: how well the plan
// covers the demand's needs, whether it pads them, whether the people fit,
// how settled the agreement is, what it cost and how long it took. Scores
// are computed from a negotiation tree's events alone, so a rebuild or a
// replay gives them again; apart from Read, which fetches a tree's events,
// the package reads no clock and does no I/O.
package quality

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
)

// Event is one event of a negotiation tree as the scorer reads it.
type Event struct {
	StreamID   string
	Payload    event.Payload
	LLMCall    *event.LLMCall
	RecordedAt time.Time
}

// Report is the quality of one negotiation: its root channel alone and
// the whole tree (sub-negotiations merged in).
type Report struct {
	DemandID string `json:"demand_id"`
	// Final is false while the negotiation runs: the scores are those so
	// far.
	Final bool `json:"final" doc:"false while the negotiation runs: the scores are those so far"`
	// Status is processing, finalized, force_finalized, failed or
	// rejected.
	Status string `json:"status" enum:"processing,finalized,force_finalized,failed,rejected"`
	Root   Scores `json:"root" doc:"the root channel alone"`
	Tree   Scores `json:"tree" doc:"the whole tree: the user's needs filled by the tree's plan"`
	// Plan is the tree's plan: the root's completion's merged plan, else
	// its final proposal (nil without one).
	Plan *negotiation.Proposal `json:"-"`
	// Placed counts, for every agent invited anywhere in the tree, the
	// places it holds in the tree's plan (for fairness across
	// negotiations).
	Placed map[string]int `json:"-"`
}

// Scores are the measures of a plan against its needs.
type Scores struct {
	// Needs is the number of needs; Places the people they ask for.
	Needs  int `json:"needs" doc:"how many needs"`
	Places int `json:"places" doc:"how many people the needs ask for"`
	// Assignees is the number of assignments of the plan.
	Assignees int `json:"assignees" doc:"the plan's assignments"`
	// NeedCoverage is the share of places filled: Σ min(assignees, count)
	// over Σ count (1 when there is nothing to fill and nothing asked).
	// For the tree, Needs, Places and NeedCoverage are the user's (the
	// root demand's) needs filled by the whole tree's plan.
	NeedCoverage float64 `json:"need_coverage" doc:"the share of places filled, 0-1"`
	// Padding counts assignees beyond a need's count or serving no need.
	Padding int `json:"padding" doc:"assignees beyond a need's count or serving no need"`
	// Relevance is the share of assignees whose profile carries a tag of
	// the need they serve.
	Relevance float64 `json:"relevance" doc:"the share of assignees whose profile carries a tag of the need they serve"`
	// IrrelevantAssignees counts the others: assignees whose profile
	// carries none of the capabilities of the need they serve (one who
	// serves no need among them). A good plan has none.
	IrrelevantAssignees int `json:"irrelevant_assignees" doc:"assignees whose profile carries none of the capabilities of the need they serve (one serving no need counts too); a good plan has none"`
	// Rounds is how many rounds the agreement took (the most of any
	// channel for the tree).
	Rounds int `json:"rounds" doc:"the rounds the agreement took"`
	// FinalAcceptRate is the accept rate of the last evaluated round (the
	// mean over channels for the tree).
	FinalAcceptRate float64 `json:"final_accept_rate" doc:"the accept rate of the last evaluated round"`
	// Stability is the share of assignees who accepted in the last round
	// and have no open conditions (a conditional offer whose conditions
	// the plan did not accept).
	Stability float64 `json:"stability" doc:"the share of assignees who accepted in the last round with no open conditions"`
	// WelfareUtilitarian and WelfareNash are the arithmetic and geometric
	// means of the assignees' fit (the filter's relevance score, 0-1).
	WelfareUtilitarian float64 `json:"welfare_utilitarian" doc:"the arithmetic mean of the assignees' fit, 0-1"`
	WelfareNash        float64 `json:"welfare_nash" doc:"the geometric mean of the assignees' fit, 0-1"`
	// NoAnswers is the share of the answers the channels rest on (every
	// offer, and every member's last feedback) that were a twin's "no
	// answer": the model failed and the prompt's fallback stood in.
	NoAnswers float64 `json:"no_answers" doc:"the share of answers where the model failed and a fallback stood in"`
	// LLM is what the model calls cost.
	LLM LLMCost `json:"llm" doc:"what the model calls cost"`
	// TimeToAgreementMS is from the submission to the agreement (the
	// tree's completion for the tree); 0 without one.
	TimeToAgreementMS int64 `json:"time_to_agreement_ms" doc:"from the submission to the agreement, in milliseconds; 0 without one"`
}

// LLMCost counts the model calls recorded with the events.
type LLMCost struct {
	// Calls counts the calls made to the provider; InputTokens and
	// OutputTokens what they spent.
	Calls        int `json:"calls" doc:"calls made to the provider"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	// Fallbacks counts the calls whose answer was the prompt's fallback.
	Fallbacks int `json:"fallbacks" doc:"calls whose answer was the prompt's fallback"`
	// Reused counts the answers taken from an earlier recorded call with
	// the same input (event.LLMCall.Reused) instead of calling the
	// provider.
	Reused int `json:"reused" doc:"answers reused from an earlier recorded call with the same input"`
}

func (c *LLMCost) add(call *event.LLMCall) {
	if call == nil {
		return
	}
	if call.Reused {
		c.Reused++
		return
	}
	c.Calls++
	c.InputTokens += call.InputTokens
	c.OutputTokens += call.OutputTokens
	if call.FallbackUsed {
		c.Fallbacks++
	}
}

// tree is what the scorer folds from the events.
type tree struct {
	root          string
	needs         map[string][]negotiation.Need // demand id → its needs
	fit           map[string]map[string]float64
	channelDemand map[string]string // channel id → demand id
	subChannel    map[string]string // sub-channel id → sub-demand id
	submitted     time.Time
	agreed        time.Time // the root channel's agreement
	completedAt   time.Time
	rootDone      *negotiation.NegotiationCompleted
	rootFailed    *negotiation.NegotiationFailed
	rejected      bool
	final         map[string]*negotiation.Proposal // channel → final proposal
	rounds        map[string]int
	lastRate      map[string]float64
	lastFeedback  map[string]map[string]negotiation.FeedbackType  // channel → agent → last answer
	conditional   map[string]map[string]bool                      // channel → agents who offered with conditions
	offered       map[string]map[string]negotiation.OfferDecision // channel → agent → its offer
	rootCost      LLMCost
	treeCost      LLMCost
	invited       []string
}

// Score folds a negotiation tree's events (in log order) into its report.
// tags returns an agent's capability tags (nil when unknown).
func Score(rootDemandID string, events []Event, tags func(agentID string) []string) Report {
	t := &tree{root: rootDemandID, needs: map[string][]negotiation.Need{}, fit: map[string]map[string]float64{},
		channelDemand: map[string]string{}, subChannel: map[string]string{}, final: map[string]*negotiation.Proposal{},
		rounds: map[string]int{}, lastRate: map[string]float64{}, lastFeedback: map[string]map[string]negotiation.FeedbackType{},
		conditional: map[string]map[string]bool{}, offered: map[string]map[string]negotiation.OfferDecision{}}
	rootChannel := negotiation.ChannelIDFor(rootDemandID)
	for _, e := range events {
		// The negotiation's own calls: a workflow the agreement became
		// runs later, and its calls (tasks, the conversation) are not the
		// negotiation's cost.
		if strings.HasPrefix(e.StreamID, negotiation.DemandStream("")) || strings.HasPrefix(e.StreamID, negotiation.ChannelStream("")) {
			t.treeCost.add(e.LLMCall)
		}
		if e.StreamID == negotiation.DemandStream(rootDemandID) || e.StreamID == negotiation.ChannelStream(rootChannel) {
			t.rootCost.add(e.LLMCall)
		}
		t.apply(e, rootChannel)
	}
	r := Report{DemandID: rootDemandID, Status: "processing"}
	switch {
	case t.rejected:
		r.Final, r.Status = true, "rejected"
	case t.rootFailed != nil && t.rootDone == nil:
		r.Final, r.Status = true, string(negotiation.ChannelStatusFailed)
	case t.rootDone != nil:
		r.Final, r.Status = true, string(t.rootDone.Status)
	}
	rootNeeds := t.needs[rootDemandID]
	var rootPlan, treePlan []negotiation.Assignment
	if p := t.final[rootChannel]; p != nil {
		rootPlan = p.Assignments
		treePlan = p.Assignments
	}
	r.Plan = t.final[rootChannel]
	if t.rootDone != nil && t.rootDone.MergedPlan != nil {
		treePlan = t.rootDone.MergedPlan.Assignments
		r.Plan = t.rootDone.MergedPlan
	}
	r.Root = t.scores(rootNeeds, rootPlan, []string{rootChannel}, tags)
	r.Root.LLM = t.rootCost
	if !t.agreed.IsZero() {
		r.Root.TimeToAgreementMS = t.agreed.Sub(t.submitted).Milliseconds()
	}
	r.Tree = t.scores(t.treeNeeds(rootNeeds), treePlan, slices.Collect(mapKeys(t.channelDemand)), tags)
	// The tree covers the user's needs: the needs sub-negotiations added
	// (an event's implicit photographer, say) count for padding and
	// relevance, not for coverage.
	root := t.scores(rootNeeds, treePlan, nil, tags)
	r.Tree.Needs, r.Tree.Places, r.Tree.NeedCoverage = root.Needs, root.Places, root.NeedCoverage
	r.Tree.LLM = t.treeCost
	if !t.completedAt.IsZero() && !t.agreed.IsZero() {
		r.Tree.TimeToAgreementMS = t.completedAt.Sub(t.submitted).Milliseconds()
	}
	r.Placed = map[string]int{}
	for _, id := range t.invited {
		r.Placed[id] += 0
	}
	for _, a := range treePlan {
		r.Placed[a.AgentID]++
	}
	return r
}

// Mean sums up many negotiations' scores: the counts (needs, places,
// assignees, padding, irrelevant assignees, LLM cost) are summed, the rest averaged (rounds and
// time to agreement rounded).
func Mean(all []Scores) Scores {
	var m Scores
	if len(all) == 0 {
		return m
	}
	n := float64(len(all))
	var rounds, ms float64
	for _, s := range all {
		m.Needs += s.Needs
		m.Places += s.Places
		m.Assignees += s.Assignees
		m.Padding += s.Padding
		m.IrrelevantAssignees += s.IrrelevantAssignees
		m.LLM.Calls += s.LLM.Calls
		m.LLM.InputTokens += s.LLM.InputTokens
		m.LLM.OutputTokens += s.LLM.OutputTokens
		m.LLM.Fallbacks += s.LLM.Fallbacks
		m.LLM.Reused += s.LLM.Reused
		m.NeedCoverage += s.NeedCoverage / n
		m.Relevance += s.Relevance / n
		m.FinalAcceptRate += s.FinalAcceptRate / n
		m.Stability += s.Stability / n
		m.NoAnswers += s.NoAnswers / n
		m.WelfareUtilitarian += s.WelfareUtilitarian / n
		m.WelfareNash += s.WelfareNash / n
		rounds += float64(s.Rounds) / n
		ms += float64(s.TimeToAgreementMS) / n
	}
	m.NeedCoverage, m.Relevance, m.FinalAcceptRate = round(m.NeedCoverage), round(m.Relevance), round(m.FinalAcceptRate)
	m.Stability, m.WelfareUtilitarian, m.WelfareNash = round(m.Stability), round(m.WelfareUtilitarian), round(m.WelfareNash)
	m.NoAnswers = round(m.NoAnswers)
	m.Rounds, m.TimeToAgreementMS = int(math.Round(rounds)), int64(math.Round(ms))
	return m
}

// ScoredTypes are the event types whose payloads Score reads (the cases
// of tree.apply): of any other event it reads only the stream, the LLM
// call and the time, so a reader may leave their payloads undecoded (nil)
// and get the same report.
var ScoredTypes = []event.EventType{
	(*negotiation.DemandSubmitted)(nil).EventType(), (*negotiation.DemandUnderstood)(nil).EventType(),
	(*negotiation.DemandRejected)(nil).EventType(), (*negotiation.FilterCompleted)(nil).EventType(),
	(*negotiation.ChannelCreated)(nil).EventType(), (*negotiation.SubnetTriggered)(nil).EventType(),
	(*negotiation.OfferSubmitted)(nil).EventType(), (*negotiation.ProposalFeedback)(nil).EventType(),
	(*negotiation.FeedbackEvaluated)(nil).EventType(), (*negotiation.ProposalFinalized)(nil).EventType(),
	(*negotiation.NegotiationForceFinalized)(nil).EventType(), (*negotiation.NegotiationFailed)(nil).EventType(),
	(*negotiation.NegotiationCompleted)(nil).EventType(),
}

func (t *tree) apply(e Event, rootChannel string) {
	switch p := e.Payload.(type) {
	case *negotiation.DemandSubmitted:
		if p.DemandID == t.root {
			t.submitted = e.RecordedAt
		}
	case *negotiation.DemandUnderstood:
		t.needs[p.DemandID] = negotiation.NeedsOf(p.Understanding())
	case *negotiation.DemandRejected:
		if p.DemandID == t.root {
			t.rejected = true
		}
	case *negotiation.FilterCompleted:
		m := map[string]float64{}
		for _, c := range p.Candidates {
			m[c.AgentID] = float64(c.RelevanceScore) / 100
		}
		t.fit[p.DemandID] = m
	case *negotiation.ChannelCreated:
		t.channelDemand[p.ChannelID] = p.DemandID
		t.invited = append(t.invited, p.InvitedAgents...)
	case *negotiation.SubnetTriggered:
		t.subChannel[p.SubChannelID] = p.SubDemandID
	case *negotiation.OfferSubmitted:
		setIn(t.offered, p.ChannelID, p.AgentID, p.Decision)
		if p.Decision == negotiation.OfferDecisionConditional {
			setIn(t.conditional, p.ChannelID, p.AgentID, true)
		}
	case *negotiation.ProposalFeedback:
		setIn(t.lastFeedback, p.ChannelID, p.AgentID, p.FeedbackType)
	case *negotiation.FeedbackEvaluated:
		t.lastRate[p.ChannelID] = p.AcceptRate
		t.rounds[p.ChannelID] = max(t.rounds[p.ChannelID], p.Round)
	case *negotiation.ProposalFinalized:
		fp := p.FinalProposal
		t.final[p.ChannelID] = &fp
		if p.ChannelID == rootChannel {
			t.agreed = e.RecordedAt
		}
	case *negotiation.NegotiationForceFinalized:
		fp := p.FinalProposal
		t.final[p.ChannelID] = &fp
		if p.ChannelID == rootChannel {
			t.agreed = e.RecordedAt
		}
	case *negotiation.NegotiationFailed:
		if p.DemandID == t.root {
			t.rootFailed = p
		}
	case *negotiation.NegotiationCompleted:
		if p.ChannelID == rootChannel {
			t.rootDone, t.completedAt = p, e.RecordedAt
		}
	}
}

// treeNeeds are the root's needs and those the sub-demands added (a
// sub-demand's need of the same role as a root need is that need).
func (t *tree) treeNeeds(root []negotiation.Need) []negotiation.Need {
	out := slices.Clone(root)
	for id, needs := range t.needs {
		if id == t.root {
			continue
		}
		for _, n := range needs {
			if !slices.ContainsFunc(out, func(m negotiation.Need) bool { return m.Role == n.Role }) {
				out = append(out, n)
			}
		}
	}
	return out
}

// scores measures plan against needs; channels are those whose rounds
// count.
func (t *tree) scores(needs []negotiation.Need, plan []negotiation.Assignment, channels []string, tags func(string) []string) Scores {
	s := Scores{Needs: len(needs), Assignees: len(plan)}
	filled := make([]int, len(needs))
	relevant, stable := 0, 0
	var fits []float64
	for _, a := range plan {
		i := slices.IndexFunc(needs, func(n negotiation.Need) bool { return n.Role == a.Need })
		if i < 0 {
			i = slices.IndexFunc(needs, func(n negotiation.Need) bool { return n.Role == a.Role })
		}
		if i < 0 || filled[i] >= needs[i].Count {
			s.Padding++
		} else {
			filled[i]++
		}
		if i >= 0 && needs[i].Serves(tags(a.AgentID)) {
			relevant++
		}
		channel := negotiation.ChannelIDFor(t.root)
		if a.SubChannelID != "" {
			channel = a.SubChannelID
		}
		if t.lastFeedback[channel][a.AgentID] == negotiation.FeedbackAccept && (!t.conditional[channel][a.AgentID] || a.ConditionsAccepted) {
			stable++
		}
		demand := t.channelDemand[channel]
		if demand == "" {
			demand = t.subChannel[channel]
		}
		fits = append(fits, min(1, max(0.01, t.fit[demand][a.AgentID])))
	}
	for i, n := range needs {
		s.Places += n.Count
		s.NeedCoverage += float64(min(filled[i], n.Count))
	}
	s.NeedCoverage = ratio(s.NeedCoverage, float64(s.Places))
	s.Relevance = ratio(float64(relevant), float64(len(plan)))
	s.IrrelevantAssignees = len(plan) - relevant
	s.Stability = ratio(float64(stable), float64(len(plan)))
	var rates []float64
	answers, none := 0, 0
	for _, c := range channels {
		for _, d := range t.offered[c] {
			answers++
			none += btoi(d == negotiation.OfferDecisionNoAnswer)
		}
		for _, f := range t.lastFeedback[c] {
			answers++
			none += btoi(f == negotiation.FeedbackNoAnswer)
		}
		s.Rounds = max(s.Rounds, t.rounds[c])
		if r, ok := t.lastRate[c]; ok {
			rates = append(rates, r)
		}
	}
	s.FinalAcceptRate = mean(rates)
	if answers > 0 {
		s.NoAnswers = round(float64(none) / float64(answers))
	}
	s.WelfareUtilitarian = mean(fits)
	if len(fits) > 0 {
		logs := 0.0
		for _, f := range fits {
			logs += math.Log(f)
		}
		s.WelfareNash = round(math.Exp(logs / float64(len(fits))))
	}
	return s
}

// Gini is the Gini coefficient of counts (0: equal, toward 1: all to
// one); 0 for none.
func Gini(counts []int) float64 {
	n := len(counts)
	if n == 0 {
		return 0
	}
	sorted := slices.Clone(counts)
	slices.Sort(sorted)
	sum, weighted := 0.0, 0.0
	for i, c := range sorted {
		sum += float64(c)
		weighted += float64(i+1) * float64(c)
	}
	if sum == 0 {
		return 0
	}
	return round((2*weighted)/(float64(n)*sum) - float64(n+1)/float64(n))
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 1
	}
	return round(a / b)
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return round(s / float64(len(xs)))
}

// round keeps three decimals.
func round(x float64) float64 { return math.Round(x*1000) / 1000 }

func setIn[V any](m map[string]map[string]V, a, b string, v V) {
	if m[a] == nil {
		m[a] = map[string]V{}
	}
	m[a][b] = v
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Reader reads the log (*eventstore.Store).
type Reader = eventstore.PageReader

// Read returns the events of the negotiation tree rooted at root, in log
// order, as Score reads them.
func Read(ctx context.Context, r Reader, root string) ([]Event, error) {
	evs, err := eventstore.ReadEvery(ctx, r, 0, eventstore.Filter{CorrelationID: root})
	if err != nil {
		return nil, fmt.Errorf("quality: %w", err)
	}
	out := make([]Event, 0, len(evs))
	for _, e := range evs {
		ev, err := EventOf(e)
		if err != nil {
			return nil, fmt.Errorf("quality: %w", err)
		}
		out = append(out, ev)
	}
	return out, nil
}

// EventOf is a recorded event as Score reads it: its stream, its payload
// decoded, the LLM call its metadata records and its time. An event of a
// type the catalog does not know (none that the engine writes) has no
// payload: Score counts only its LLM call.
func EventOf(e eventstore.RecordedEvent) (Event, error) {
	if _, known := event.Spec(e.Type); !known {
		return Event{StreamID: e.StreamID, LLMCall: e.Metadata.LLMCall, RecordedAt: e.RecordedAt}, nil
	}
	p, err := e.Decode()
	if err != nil {
		return Event{}, err
	}
	return Event{StreamID: e.StreamID, Payload: p, LLMCall: e.Metadata.LLMCall, RecordedAt: e.RecordedAt}, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
