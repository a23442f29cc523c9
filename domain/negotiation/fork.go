package negotiation

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/towow/towow/domain/event"
)

// Forks ("what if"): a negotiation tree copied up to a point of its
// history, with one change, continuing from there as a negotiation of its
// own. The copy and the continuation are the engine's; what the change
// means at that point is decided here.

// Fork events.
const (
	// EventNegotiationForked: a negotiation tree was forked from another
	// at a cursor of its history, with one change.
	EventNegotiationForked event.EventType = "towow.negotiation.forked"
	// EventChannelRulesChanged: a fork's change_rule set a running
	// channel's rules.
	EventChannelRulesChanged event.EventType = "towow.channel.rules_changed"
)

// ForkChangeType is what a fork changes.
type ForkChangeType string

// Fork change types.
const (
	// ForkNoChange: the fork goes on as the original did (with its
	// recorded LLM answers, so it ends as the original did).
	ForkNoChange ForkChangeType = "none"
	// ForkRemoveAgent: the agent is unavailable from the fork point on:
	// it declines an offer it has not made, withdraws from the round it
	// is asked in, and no later negotiation of the tree invites it.
	ForkRemoveAgent ForkChangeType = "remove_agent"
	// ForkReplaceOffer: the agent's offer, still owed at the fork point,
	// is the one given instead of what the agent would have said.
	ForkReplaceOffer ForkChangeType = "replace_offer"
	// ForkReplaceFeedback: the agent's feedback on the proposal out at the
	// fork point, still owed, is the one given.
	ForkReplaceFeedback ForkChangeType = "replace_feedback"
	// ForkChangeRule: the rules given (max rounds, timeouts, depth) hold
	// from the fork point on, in the channels running then and in those
	// the tree opens later.
	ForkChangeRule ForkChangeType = "change_rule"
	// ForkAddAgent: the agent joins the candidates of the channels that
	// collect offers at the fork point (or of the root channel, when the
	// fork point is before it opened) and is asked for its offer.
	ForkAddAgent ForkChangeType = "add_agent"
	// ForkChangeDemand: the demand reads Text instead: a fork at the
	// submission, before prompt 1 read the old text, whose copied
	// submission carries the new one.
	ForkChangeDemand ForkChangeType = "change_demand"
)

// ForkChangeTypes lists the change types a fork takes.
var ForkChangeTypes = []ForkChangeType{ForkNoChange, ForkRemoveAgent, ForkAddAgent, ForkReplaceOffer, ForkReplaceFeedback,
	ForkChangeRule, ForkChangeDemand}

// ForkChangeFields is each fork change type's fields beside its type.
var ForkChangeFields = map[ForkChangeType]event.Fields{
	ForkNoChange:        {},
	ForkRemoveAgent:     {Required: []string{"agent_id"}},
	ForkAddAgent:        {Required: []string{"agent_id"}},
	ForkReplaceOffer:    {Required: []string{"agent_id", "offer"}},
	ForkReplaceFeedback: {Required: []string{"agent_id", "feedback"}},
	ForkChangeRule:      {Required: []string{"rules"}},
	ForkChangeDemand:    {Required: []string{"text"}},
}

// ForkChange is the one change a fork makes (ForkChangeFields).
type ForkChange struct {
	Type    ForkChangeType `json:"type" enum:"none,remove_agent,add_agent,replace_offer,replace_feedback,change_rule,change_demand"`
	AgentID string         `json:"agent_id,omitempty" maxLength:"128" doc:"the agent removed or added, or whose offer or feedback is replaced"`
	// Offer is replace_offer's answer; Feedback replace_feedback's.
	Offer    *OfferAnswer    `json:"offer,omitempty" doc:"replace_offer: the agent's offer"`
	Feedback *FeedbackAnswer `json:"feedback,omitempty" doc:"replace_feedback: the agent's feedback"`
	// Rules is change_rule's: the rules that change (nil: unchanged).
	Rules *RulesChange `json:"rules,omitempty" doc:"change_rule: the rules that change"`
	// Text is change_demand's: the demand's text in the fork.
	Text string `json:"text,omitempty" maxLength:"10000" doc:"change_demand: the demand's text in the fork" personal:"true"`
}

// NeedsAgent reports whether the change names an agent.
func (c ForkChange) NeedsAgent() bool {
	return slices.Contains(ForkChangeFields[c.Type].Required, "agent_id")
}

// RulesChange is the rules a fork's change_rule sets (nil: unchanged).
type RulesChange struct {
	MaxRounds              *int `json:"max_rounds,omitempty" minimum:"1" maximum:"20"`
	OfferTimeoutSeconds    *int `json:"offer_timeout_seconds,omitempty" minimum:"1" maximum:"86400"`
	FeedbackTimeoutSeconds *int `json:"feedback_timeout_seconds,omitempty" minimum:"1" maximum:"86400"`
	StuckTimeoutSeconds    *int `json:"stuck_timeout_seconds,omitempty" minimum:"1" maximum:"604800"`
	MaxDepth               *int `json:"max_depth,omitempty" minimum:"0" maximum:"3"`
	AcceptPercent          *int `json:"accept_percent,omitempty" minimum:"1" maximum:"100" doc:"a round whose accept rate reaches it finalizes (design: 80)"`
	FailPercent            *int `json:"fail_percent,omitempty" minimum:"1" maximum:"100" doc:"a round below it fails (design: 50); under accept_percent"`
}

// Apply returns r with the changes set.
func (rc RulesChange) Apply(r Rules) Rules {
	for _, f := range []struct {
		dst *int
		src *int
	}{{&r.MaxRounds, rc.MaxRounds}, {&r.OfferTimeoutSeconds, rc.OfferTimeoutSeconds},
		{&r.FeedbackTimeoutSeconds, rc.FeedbackTimeoutSeconds}, {&r.StuckTimeoutSeconds, rc.StuckTimeoutSeconds},
		{&r.MaxDepth, rc.MaxDepth}, {&r.AcceptPercent, rc.AcceptPercent}, {&r.FailPercent, rc.FailPercent}} {
		if f.src != nil {
			*f.dst = *f.src
		}
	}
	return r
}

// valid refuses rules no channel can run by.
func (rc RulesChange) valid() error {
	r := rc.Apply(Rules{MaxRounds: 1, OfferTimeoutSeconds: 1, FeedbackTimeoutSeconds: 1, StuckTimeoutSeconds: 1})
	if r.MaxRounds < 1 || r.OfferTimeoutSeconds < 1 || r.FeedbackTimeoutSeconds < 1 || r.StuckTimeoutSeconds < 1 || r.MaxDepth < 0 {
		return event.Errorf(ErrForkChange, "change_rule: rounds and timeouts are at least 1, the depth at least 0")
	}
	for _, p := range []*int{rc.AcceptPercent, rc.FailPercent} {
		if p != nil && (*p < 1 || *p > 100) {
			return event.Errorf(ErrForkChange, "change_rule: a threshold is a percentage from 1 to 100")
		}
	}
	if rc == (RulesChange{}) {
		return event.Errorf(ErrForkChange, "change_rule needs a rule to change")
	}
	return nil
}

// ChannelRulesChanged is the payload of [EventChannelRulesChanged].
type ChannelRulesChanged struct {
	ChannelID string `json:"channel_id"`
	DemandID  string `json:"demand_id"`
	Rules     Rules  `json:"rules" doc:"the channel's rules from now on"`
	Reason    string `json:"reason" personal:"true"`
}

// EventType implements [event.Payload].
func (*ChannelRulesChanged) EventType() event.EventType { return EventChannelRulesChanged }

// NegotiationForked is the payload of [EventNegotiationForked], the first
// event the fork writes after its copy of the original's history.
type NegotiationForked struct {
	DemandID   string     `json:"demand_id"`
	ForkedFrom string     `json:"forked_from" doc:"the original negotiation's root demand"`
	At         int64      `json:"at" doc:"the cursor in the original's history the fork starts after"`
	Copied     int        `json:"copied" doc:"how many of the original's events the fork copied"`
	Change     ForkChange `json:"change"`
	ForkedAt   time.Time  `json:"forked_at"`
}

// EventType implements [event.Payload].
func (*NegotiationForked) EventType() event.EventType { return EventNegotiationForked }

// Fork errors.
var (
	// ErrForkPoint: the cursor is not a point of the negotiation's history
	// the fork can start after (TOWOW_FORK_001).
	ErrForkPoint = &event.Error{Code: "TOWOW_FORK_001", Message: "not a point of the negotiation to fork at"}
	// ErrForkChange: the change makes no sense at that point: an agent
	// unknown to the negotiation, or with no part left in it
	// (TOWOW_FORK_002).
	ErrForkChange = &event.Error{Code: "TOWOW_FORK_002", Message: "the change does not apply at that point"}
)

// ForkTreeID is the part every id of a negotiation tree shares: the root
// demand id without its "d-" ("d-3f9a" → "3f9a"; sub-demands, channels,
// proposals and the workflow all carry it).
func ForkTreeID(rootDemandID string) string { return strings.TrimPrefix(rootDemandID, "d-") }

// ForkedChange is one stream's events of a fork's change.
type ForkedChange struct {
	Stream string
	Events []event.Payload
}

// ApplyForkChange decides what change means for the channels of a tree as
// they are at the fork point (by channel id; each is evolved by the events
// returned). remove_agent: a decline for an offer it owes, a withdrawal
// from the round it must answer, else a withdrawal from a channel where it
// still takes part; a channel that ended is left alone, and an agent not
// invited yet is only kept out of later channels (the engine's filter).
// replace_offer and replace_feedback: the answer given, where the agent
// owes one. ErrForkChange for an unknown change, one that names no agent
// or lacks its answer, a replacement nothing awaits at that point, and an
// answer the channel refuses (an invalid offer or feedback).
func ApplyForkChange(channels map[string]*Channel, change ForkChange, agentName string, now time.Time) ([]ForkedChange, error) {
	switch change.Type {
	case ForkNoChange, ForkChangeDemand: // the copied submission's (ForkDemandText)
		return nil, nil
	case ForkChangeRule:
		return changeRules(channels, change.Rules)
	case ForkAddAgent:
		return addAgent(channels, strings.TrimSpace(change.AgentID), agentName)
	case ForkRemoveAgent, ForkReplaceOffer, ForkReplaceFeedback:
	default:
		return nil, event.Errorf(ErrForkChange, "unknown change %q (one of %s)", change.Type, event.JoinNames(ForkChangeTypes))
	}
	id := strings.TrimSpace(change.AgentID)
	if id == "" {
		return nil, event.Errorf(ErrForkChange, "%s needs an agent_id", change.Type)
	}
	ids := make([]string, 0, len(channels))
	for cid := range channels {
		ids = append(ids, cid)
	}
	sort.Strings(ids)
	var out []ForkedChange
	for _, cid := range ids {
		c := channels[cid]
		if !c.Invited(id) || c.Completed || c.Status.IsTerminal() {
			continue
		}
		evs, err := forkChangeIn(c, id, change, now)
		if err != nil {
			return nil, fmt.Errorf("%s of %s in %s: %w", change.Type, id, cid, err)
		}
		for _, ev := range evs {
			c.Apply(ev)
		}
		if len(evs) > 0 {
			out = append(out, ForkedChange{Stream: ChannelStream(cid), Events: evs})
		}
	}
	switch {
	case change.Type == ForkReplaceOffer && len(out) == 0:
		return nil, event.Errorf(ErrForkChange, "no channel awaits %s's offer at that point: fork at a cursor before it offered", id)
	case change.Type == ForkReplaceFeedback && len(out) == 0:
		return nil, event.Errorf(ErrForkChange, "no proposal awaits %s's feedback at that point: fork at a cursor after a proposal went out and before it answered", id)
	}
	return out, nil
}

// addAgent invites agent id (named name) to every channel that has not
// closed its offers: it is asked for an offer there (at the broadcast, for
// a channel not broadcast yet). No channel yet: nothing here (the engine's
// filter adds it to the root channel's candidates). ErrForkChange when
// every channel has closed its offers.
func addAgent(channels map[string]*Channel, id, name string) ([]ForkedChange, error) {
	if id == "" {
		return nil, event.Errorf(ErrForkChange, "add_agent needs an agent_id")
	}
	var out []ForkedChange
	open := 0
	for _, cid := range slices.Sorted(maps.Keys(channels)) {
		c := channels[cid]
		if c.Status != ChannelStatusCreated && c.Status != ChannelStatusBroadcasting && c.Status != ChannelStatusCollecting {
			continue
		}
		open++
		if c.Invited(id) {
			continue
		}
		evs := []event.Payload{&ChannelInviteSent{ChannelID: c.ID, DemandID: c.DemandID, AgentID: id, DisplayName: name, Reason: ForkAddedReason}}
		if c.Status == ChannelStatusCollecting {
			evs = append(evs, &OfferRequested{ChannelID: c.ID, DemandID: c.DemandID, AgentID: id, Round: 1, FilterReason: ForkAddedReason})
		}
		for _, ev := range evs {
			c.Apply(ev)
		}
		out = append(out, ForkedChange{Stream: ChannelStream(cid), Events: evs})
	}
	if len(channels) > 0 && open == 0 {
		return nil, event.Errorf(ErrForkChange, "no channel collects offers at that point: fork before the offers closed")
	}
	if open > 0 && len(out) == 0 {
		return nil, event.Errorf(ErrForkChange, "agent %s is invited already wherever offers are collected", id)
	}
	return out, nil
}

// ForkAddedReason is why a fork's add_agent invited an agent.
const ForkAddedReason = "假设分支：加入候选人"

// changeRules sets the rules of every channel still running (the
// tree's later channels take them from the fork's change: the engine).
func changeRules(channels map[string]*Channel, rc *RulesChange) ([]ForkedChange, error) {
	if rc == nil {
		return nil, event.Errorf(ErrForkChange, "change_rule needs rules")
	}
	if err := rc.valid(); err != nil {
		return nil, err
	}
	var out []ForkedChange
	for _, cid := range slices.Sorted(maps.Keys(channels)) {
		c := channels[cid]
		if c.Completed || c.Status.IsTerminal() {
			continue
		}
		rules := rc.Apply(c.Rules)
		if accept, fail := rules.thresholds(); fail >= accept {
			return nil, event.Errorf(ErrForkChange, "change_rule: the fail threshold (%d %%) must be under the accept threshold (%d %%)", fail, accept)
		}
		ev := &ChannelRulesChanged{ChannelID: c.ID, DemandID: c.DemandID, Rules: rules, Reason: "假设分支：改变规则"}
		c.Apply(ev)
		out = append(out, ForkedChange{Stream: ChannelStream(cid), Events: []event.Payload{ev}})
	}
	return out, nil
}

// forkChangeIn is what change does in channel c for agent id (invited,
// the channel still running).
func forkChangeIn(c *Channel, id string, change ForkChange, now time.Time) ([]event.Payload, error) {
	_, offered := c.Offers[id]
	owesOffer := c.Status == ChannelStatusCollecting && !offered
	owesFeedback := c.AwaitingFeedback() && slices.Contains(c.MissingFeedback(), id)
	switch change.Type {
	case ForkReplaceOffer:
		if !owesOffer {
			return nil, nil
		}
		if change.Offer == nil {
			return nil, event.Errorf(ErrForkChange, "replace_offer needs an offer")
		}
		return c.SubmitOffer(Offer{AgentID: id, OfferAnswer: *change.Offer}, "", now)
	case ForkReplaceFeedback:
		if !owesFeedback {
			return nil, nil
		}
		if change.Feedback == nil {
			return nil, event.Errorf(ErrForkChange, "replace_feedback needs a feedback")
		}
		return c.SubmitFeedback(ProposalFeedback{AgentID: id, FeedbackAnswer: *change.Feedback}, 0, now)
	}
	switch { // remove_agent
	case owesOffer:
		return c.SubmitOffer(Offer{AgentID: id, OfferAnswer: OfferAnswer{Decision: OfferDecisionDecline,
			DeclineReason: ForkUnavailableReason, Reasoning: ForkUnavailableReason}}, "", now)
	case owesFeedback:
		return c.SubmitFeedback(ProposalFeedback{AgentID: id, FeedbackAnswer: FeedbackAnswer{FeedbackType: FeedbackWithdraw,
			Reasoning: ForkUnavailableReason}}, 0, now)
	case offered && !c.Withdrawn[id] && c.Offers[id].Decision.Participates():
		return []event.Payload{&AgentWithdrawn{ChannelID: c.ID, DemandID: c.DemandID, AgentID: id, DisplayName: c.DisplayName(id),
			Reason: ForkUnavailableReason}}, nil
	}
	return nil, nil
}

// ForkUnavailableReason is what an agent removed by a fork says.
const ForkUnavailableReason = "假设分支：此后不可用"

// init registers this file's event types in the catalog.
func init() {
	event.Register(
		event.NewSpec[ChannelRulesChanged]("A fork's change_rule set a running channel's rules."),
		event.NewSpec[NegotiationForked]("A negotiation tree was forked from another at a cursor of its history, with one change."),
	)
}
