package domain

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Upcaster rewrites the JSON object of one schema version of a payload into
// the JSON object of the next version (v → v+1).
type Upcaster func(data []byte) ([]byte, error)

// EventSpec describes one registered event type.
//
// # Changing a payload
//
// Any change to a payload's JSON shape, even a new optional field, is a new
// schema version, because [DecodePayload] rejects unknown fields. To make
// one: change the struct, increment SchemaVersion in the spec's entry in
// registry.go, and add Upcasters[old] — a function that rewrites the JSON of
// the old version into the new one (add the field's default, rename a key,
// ...). Stored events keep their version; DecodePayload runs the chain of
// upcasters from the stored version up to the current one before decoding,
// so code only ever sees the current struct. A version without a complete
// chain is rejected with [ErrUnknownSchemaVersion].
type EventSpec struct {
	// Type is the event type name.
	Type EventType
	// SchemaVersion is the current version of the payload schema; events are
	// encoded at this version.
	SchemaVersion int
	// Summary is a one-line English description, for generated docs.
	Summary string
	// New returns a new, zero payload of the registered type (a pointer,
	// e.g. *DemandSubmitted).
	New func() Payload
	// Upcasters maps an older version v to the function that upgrades the
	// JSON of version v to version v+1. Nil while SchemaVersion is 1.
	Upcasters map[int]Upcaster
}

// KnownVersions returns, in ascending order, the schema versions
// [DecodePayload] accepts for this type: the current one and every older
// one that a complete chain of upcasters leads up from.
func (s EventSpec) KnownVersions() []int {
	versions := []int{s.SchemaVersion}
	for v := s.SchemaVersion - 1; v >= 1 && s.Upcasters[v] != nil; v-- {
		versions = append(versions, v)
	}
	slices.Reverse(versions)
	return versions
}

// checkVersion returns an [ErrUnknownSchemaVersion] error unless v is one
// of s.KnownVersions().
func (s EventSpec) checkVersion(v int) error {
	known := s.KnownVersions()
	if !slices.Contains(known, v) {
		return fmt.Errorf("domain: decode %s payload: %w %d (known versions: %s)",
			s.Type, ErrUnknownSchemaVersion, v, joinInts(known))
	}
	return nil
}

// upcast brings data from schema version v, which must be known, up to
// s.SchemaVersion.
func (s EventSpec) upcast(v int, data []byte) ([]byte, error) {
	for ; v < s.SchemaVersion; v++ {
		up, err := s.Upcasters[v](data)
		if err != nil {
			return nil, fmt.Errorf("domain: upcast %s payload from v%d to v%d: %w", s.Type, v, v+1, err)
		}
		data = up
	}
	return data, nil
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

// newSpec returns the version 1 spec of payload type T; the event type is
// taken from T itself, so Type and New cannot disagree.
func newSpec[T any, PT interface {
	*T
	Payload
}](summary string) EventSpec {
	return EventSpec{
		Type:          PT(new(T)).EventType(),
		SchemaVersion: 1,
		Summary:       summary,
		New:           func() Payload { return PT(new(T)) },
	}
}

// specs is the catalog: the one place where event types are registered.
var specs = []EventSpec{
	// Demand and filter.
	newSpec[DemandSubmitted]("A user submitted a demand in their own words."),
	newSpec[DemandUnderstood]("The demand was understood: surface demand, capability tags and confidence."),
	newSpec[DemandBroadcast]("The demand was broadcast to the candidate agents of a channel."),
	newSpec[DemandAccepted]("The demand was accepted for processing and assigned a channel."),
	newSpec[DemandRejected]("The demand was rejected, e.g. because no suitable agent was found."),
	newSpec[FilterStarted]("Smart filtering of the agents for a demand started."),
	newSpec[FilterCompleted]("Smart filtering chose the candidate agents for a demand."),

	// Channel.
	newSpec[ChannelCreated]("A negotiation channel was created for a demand or sub-demand."),
	newSpec[ChannelInviteSent]("An agent was invited to a negotiation channel."),
	newSpec[ChannelStatusChanged]("The channel state machine moved from one status to another."),
	newSpec[ChannelClosed]("A negotiation channel was closed in a terminal status."),
	newSpec[ChannelRulesChanged]("A fork's change_rule set a running channel's rules."),

	// Offers.
	newSpec[OfferRequested]("An agent was asked to answer a demand with an offer."),
	newSpec[OfferSubmitted]("An agent answered a demand: participate, decline or conditional."),
	newSpec[OfferTimeout]("The offer window closed; the channel goes on with the offers received."),

	// Proposals.
	newSpec[AggregationStarted]("Aggregation of the received offers into a proposal started."),
	newSpec[ProposalDistributed]("A proposal was distributed to the participants for review."),
	newSpec[ProposalFeedback]("A participant gave feedback on a proposal: accept, negotiate, withdraw or reject."),
	newSpec[ProposalAdjusting]("The proposal is being adjusted to the feedback of the last round."),
	newSpec[ProposalFinalized]("The negotiation reached consensus on a final proposal."),

	// Multi-round negotiation.
	newSpec[FeedbackEvaluated]("The feedback of a round was counted and the next step decided."),
	newSpec[NegotiationRoundStarted]("A new negotiation round started."),
	newSpec[NegotiationForceFinalized]("The last round ended without consensus; the proposal was force-finalized."),
	newSpec[NegotiationFailed]("The negotiation failed."),
	newSpec[NegotiationCompleted]("A channel and all its sub-negotiations ended; carries the result of the tree."),
	newSpec[NegotiationForked]("A negotiation tree was forked from another at a cursor of its history, with one change."),

	// Recursion.
	newSpec[GapIdentified]("Gaps (missing capabilities) were identified in a proposal."),
	newSpec[SubnetTriggered]("A sub-negotiation was started to fill a gap."),
	newSpec[SubnetCompleted]("A sub-negotiation ended, successfully or not."),

	// Agents and system.
	newSpec[AgentOnline]("An agent came online."),
	newSpec[AgentOffline]("An agent went offline."),
	newSpec[AgentWithdrawn]("An agent withdrew from a negotiation channel."),
	newSpec[AgentRegistered]("An agent profile was registered."),
	newSpec[AgentUpdated]("An agent's profile was replaced."),
	newSpec[AgentDeactivated]("An agent was deactivated and is no longer invited."),
	newSpec[AgentReactivated]("A deactivated agent was reactivated and may be invited again."),
	newSpec[AgentTokenIssued]("An external agent was issued a new API token; earlier tokens stop working."),
	newSpec[ErrorOccurred]("An error occurred."),

	// Workflows: the agreed plan carried out.
	newSpec[WorkflowCreated]("An agreed plan became a draft workflow: a task per assignment, a milestone per timeline milestone."),
	newSpec[WorkflowNodeAdded]("A validated decision added a node to a workflow."),
	newSpec[WorkflowNodeUpdated]("A validated decision changed a workflow node's fields."),
	newSpec[WorkflowNodeDeleted]("A validated decision deleted a workflow node and its edges."),
	newSpec[WorkflowNodeMoved]("A workflow node was moved on the canvas (layout only)."),
	newSpec[WorkflowEdgeAdded]("A validated decision made one workflow node run after another."),
	newSpec[WorkflowEdgeDeleted]("A validated decision removed an edge of a workflow."),
	newSpec[WorkflowStarted]("A workflow's execution started."),
	newSpec[WorkflowCompleted]("Every node of a workflow completed."),
	newSpec[WorkflowFailed]("A workflow failed: one of its nodes failed for good."),
	newSpec[WorkflowCancelled]("A workflow was cancelled; nodes not started were skipped."),
	newSpec[NodeStarted]("An attempt of a workflow node started."),
	newSpec[NodeCompleted]("A workflow node completed with its result."),
	newSpec[NodeFailed]("An attempt of a workflow node failed; another follows or the node failed for good."),
	newSpec[NodeSkipped]("A workflow node will not run: a dependency failed, or the workflow failed or was cancelled."),
	newSpec[DecisionValidated]("The Coordinator let a decision on a workflow through (with any corrections); its effects follow in the same commit."),
	newSpec[DecisionRejected]("The Coordinator refused a decision on a workflow, naming the rule and the field errors."),
	newSpec[ConversationMessage]("A person said something to the conversation agent about a workflow."),
	newSpec[ConversationStep]("The conversation agent took a step: its thought, its action (a tool or a decision) and what it observed."),
	newSpec[ConversationReplied]("The conversation agent ended its turn with a reply (or a question for the person)."),
}

// registry indexes specs by type; it is checked once at start-up.
var registry = buildRegistry(specs)

func buildRegistry(specs []EventSpec) map[EventType]EventSpec {
	r := make(map[EventType]EventSpec, len(specs))
	for _, s := range specs {
		if err := checkSpec(s); err != nil {
			panic("domain: invalid event catalog: " + err.Error())
		}
		if _, dup := r[s.Type]; dup {
			panic("domain: invalid event catalog: duplicate event type " + string(s.Type))
		}
		r[s.Type] = s
	}
	return r
}

func checkSpec(s EventSpec) error {
	switch {
	case !s.Type.Valid():
		return fmt.Errorf("malformed event type %q", s.Type)
	case s.SchemaVersion < 1:
		return fmt.Errorf("%s: schema version %d < 1", s.Type, s.SchemaVersion)
	case s.Summary == "":
		return fmt.Errorf("%s: empty summary", s.Type)
	case s.New == nil || s.New() == nil:
		return fmt.Errorf("%s: no payload constructor", s.Type)
	case s.New().EventType() != s.Type:
		return fmt.Errorf("%s: payload %T reports type %s", s.Type, s.New(), s.New().EventType())
	}
	for v, up := range s.Upcasters {
		if v < 1 || v >= s.SchemaVersion || up == nil {
			return fmt.Errorf("%s: bad upcaster for version %d", s.Type, v)
		}
	}
	return nil
}

// Spec returns the registered spec of t.
func Spec(t EventType) (EventSpec, bool) {
	s, ok := registry[t]
	s.Upcasters = maps.Clone(s.Upcasters)
	return s, ok
}

// Catalog returns every registered spec, sorted by Type, for documentation
// generation.
func Catalog() []EventSpec {
	out := make([]EventSpec, 0, len(registry))
	for _, s := range registry {
		s.Upcasters = maps.Clone(s.Upcasters)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b EventSpec) int { return strings.Compare(string(a.Type), string(b.Type)) })
	return out
}
