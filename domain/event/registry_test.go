package event_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/erasure"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/event/eventtest"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/notice"
	"github.com/towow/towow/domain/workflow"
)

// requiredEventTypes is the literal list of event types the catalog must
// hold: every event the design names (towow.aggregation.started in place
// of the older towow.proposal.aggregating), the multi-round events, the
// channel's status changes, the agent directory's and the workflows'.
var requiredEventTypes = []string{
	"towow.demand.submitted",
	"towow.demand.understood",
	"towow.demand.broadcast",
	"towow.demand.accepted",
	"towow.demand.rejected",
	"towow.filter.started",
	"towow.filter.completed",
	"towow.channel.created",
	"towow.channel.invite_sent",
	"towow.channel.status_changed",
	"towow.channel.closed",
	"towow.offer.requested",
	"towow.offer.submitted",
	"towow.offer.timeout",
	"towow.aggregation.started",
	"towow.proposal.distributed",
	"towow.proposal.feedback",
	"towow.proposal.adjusting",
	"towow.proposal.finalized",
	"towow.feedback.evaluated",
	"towow.negotiation.round_started",
	"towow.negotiation.force_finalized",
	"towow.negotiation.failed",
	"towow.negotiation.completed",
	"towow.gap.identified",
	"towow.subnet.triggered",
	"towow.subnet.declined",
	"towow.subnet.completed",
	"towow.agent.online",
	"towow.agent.offline",
	"towow.agent.withdrawn",
	"towow.agent.registered",
	"towow.agent.updated",
	"towow.agent.deactivated",
	"towow.agent.reactivated",
	"towow.agent.token_issued",
	"towow.error.occurred",
	// Sharing.
	"towow.collaborator.added",
	"towow.collaborator.removed",
	// Notices.
	"towow.notice.posted",
	"towow.webhook.subscribed",
	"towow.webhook.unsubscribed",
	"towow.webhook.delivered",
	// Erasures.
	"towow.personal.erased",
	// Workflows.
	"towow.workflow.created",
	"towow.workflow.node_added",
	"towow.workflow.node_updated",
	"towow.workflow.node_deleted",
	"towow.workflow.node_moved",
	"towow.workflow.edge_added",
	"towow.workflow.edge_deleted",
	"towow.workflow.started",
	"towow.workflow.completed",
	"towow.workflow.failed",
	"towow.workflow.cancelled",
	"towow.node.started",
	"towow.node.completed",
	"towow.node.failed",
	"towow.node.skipped",
	"towow.decision.validated",
	"towow.decision.rejected",
	"towow.conversation.message",
	"towow.conversation.step",
	"towow.conversation.replied",
	"towow.conversation.reported",
	"towow.conversation.summarized",
	"towow.negotiation.forked",
	"towow.channel.rules_changed",
}

func TestCatalogHoldsExactlyTheRequiredTypes(t *testing.T) {
	var got []string
	for _, s := range event.Catalog() {
		got = append(got, string(s.Type))
	}
	want := slices.Clone(requiredEventTypes)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("catalog types:\n got %q\nwant %q", got, want)
	}
	for _, name := range requiredEventTypes {
		if _, ok := event.Spec(event.EventType(name)); !ok {
			t.Errorf("Spec(%q) not found", name)
		}
	}
}

func TestCatalogEntriesAreWellFormed(t *testing.T) {
	cat := event.Catalog()
	if !slices.IsSortedFunc(cat, func(a, b event.EventSpec) int { return strings.Compare(string(a.Type), string(b.Type)) }) {
		t.Error("Catalog() is not sorted by Type")
	}
	for _, s := range cat {
		if !strings.HasPrefix(string(s.Type), event.EventTypePrefix) || !s.Type.Valid() {
			t.Errorf("%q: malformed event type", s.Type)
		}
		if s.SchemaVersion != 1 {
			t.Errorf("%s: schema version %d, want 1", s.Type, s.SchemaVersion)
		}
		if s.Summary == "" || strings.Contains(s.Summary, "\n") {
			t.Errorf("%s: summary must be one non-empty line: %q", s.Type, s.Summary)
		}
		p := s.New()
		if p == nil || reflect.ValueOf(p).Kind() != reflect.Pointer || p.EventType() != s.Type {
			t.Errorf("%s: New() = %#v", s.Type, p)
		}
		if p2 := s.New(); any(p) == any(p2) {
			t.Errorf("%s: New() returns a shared value", s.Type)
		}
		if got := s.KnownVersions(); !slices.Equal(got, []int{1}) {
			t.Errorf("%s: KnownVersions() = %v, want [1]", s.Type, got)
		}
	}
}

func TestEventTypeValid(t *testing.T) {
	tests := []struct {
		t    event.EventType
		want bool
	}{
		{"towow.demand.submitted", true},
		{"towow.channel.invite_sent", true},
		{"towow.a1.b_2", true},
		{"", false},
		{"towow.", false},
		{"towow.demand", false},
		{"towow.demand.", false},
		{"towow..submitted", false},
		{"towow.demand.submitted.extra", false},
		{"demand.submitted", false},
		{"Towow.demand.submitted", false},
		{"towow.Demand.submitted", false},
		{"towow.demand.1submitted", false},
		{"towow.demand._x", false},
		{"towow.demand.sub-mitted", false},
		{"towow.demand.sub mitted", false},
	}
	for _, tt := range tests {
		if got := tt.t.Valid(); got != tt.want {
			t.Errorf("EventType(%q).Valid() = %v, want %v", tt.t, got, tt.want)
		}
	}
}

func TestEveryEventConstantIsRegistered(t *testing.T) {
	// Each exported constant, listed by hand through the required list.
	for _, name := range requiredEventTypes {
		if !strings.HasPrefix(name, event.EventTypePrefix) {
			t.Errorf("%q does not start with %q", name, event.EventTypePrefix)
		}
	}
	consts := []event.EventType{
		negotiation.EventDemandSubmitted, negotiation.EventDemandUnderstood, negotiation.EventDemandBroadcast, negotiation.EventDemandAccepted,
		negotiation.EventDemandRejected, negotiation.EventFilterStarted, negotiation.EventFilterCompleted, negotiation.EventChannelCreated,
		negotiation.EventChannelInviteSent, negotiation.EventChannelStatusChanged, negotiation.EventChannelClosed, negotiation.EventOfferRequested,
		negotiation.EventOfferSubmitted, negotiation.EventOfferTimeout, negotiation.EventAggregationStarted, negotiation.EventProposalDistributed,
		negotiation.EventProposalFeedback, negotiation.EventProposalAdjusting, negotiation.EventProposalFinalized, negotiation.EventFeedbackEvaluated,
		negotiation.EventNegotiationRoundStarted, negotiation.EventNegotiationForceFinalized, negotiation.EventNegotiationFailed,
		negotiation.EventGapIdentified, negotiation.EventSubnetTriggered, negotiation.EventSubnetDeclined, negotiation.EventSubnetCompleted, negotiation.EventAgentOnline,
		negotiation.EventAgentOffline, negotiation.EventAgentWithdrawn, negotiation.EventErrorOccurred, negotiation.EventNegotiationCompleted,
		negotiation.EventAgentRegistered, negotiation.EventAgentUpdated, negotiation.EventAgentDeactivated, negotiation.EventAgentReactivated, negotiation.EventAgentTokenIssued,
		workflow.EventWorkflowCreated, workflow.EventWorkflowNodeAdded, workflow.EventWorkflowNodeUpdated, workflow.EventWorkflowNodeDeleted, workflow.EventWorkflowNodeMoved,
		workflow.EventWorkflowEdgeAdded, workflow.EventWorkflowEdgeDeleted, workflow.EventWorkflowStarted, workflow.EventWorkflowCompleted, workflow.EventWorkflowFailed,
		workflow.EventWorkflowCancelled, workflow.EventNodeStarted, workflow.EventNodeCompleted, workflow.EventNodeFailed, workflow.EventNodeSkipped,
		workflow.EventDecisionValidated, workflow.EventDecisionRejected, workflow.EventConversationMessage, workflow.EventConversationStep, workflow.EventConversationReplied, workflow.EventConversationReported, workflow.EventConversationSummarized,
		negotiation.EventNegotiationForked, negotiation.EventChannelRulesChanged, negotiation.EventCollaboratorAdded, negotiation.EventCollaboratorRemoved,
		notice.EventNoticePosted, notice.EventWebhookSubscribed, notice.EventWebhookUnsubscribed, notice.EventWebhookDelivered,
		erasure.EventErased,
	}
	if len(consts) != len(requiredEventTypes) {
		t.Errorf("%d constants, %d required types", len(consts), len(requiredEventTypes))
	}
	for _, c := range consts {
		if !strings.HasPrefix(string(c), event.EventTypePrefix) || !c.Valid() {
			t.Errorf("%q: malformed", c)
		}
		if _, ok := event.Spec(c); !ok {
			t.Errorf("%q: not registered", c)
		}
	}
}

func TestSamplesCoverCatalog(t *testing.T) {
	seen := map[event.EventType]int{}
	for _, p := range eventtest.Payloads {
		seen[p.EventType()]++
	}
	for _, s := range event.Catalog() {
		if seen[s.Type] != 1 {
			t.Errorf("%s: %d sample payloads in samplePayloads, want exactly 1", s.Type, seen[s.Type])
		}
	}
	for typ := range seen {
		if _, ok := event.Spec(typ); !ok {
			t.Errorf("sample for unregistered type %s", typ)
		}
	}
}

func TestSamplesFillEveryField(t *testing.T) {
	for _, p := range eventtest.Payloads {
		if zero := zeroFields(reflect.ValueOf(p), ""); len(zero) > 0 {
			t.Errorf("%s sample leaves fields zero, so the round trip does not cover them: %v",
				p.EventType(), zero)
		}
	}
}

// zeroFields lists the paths of zero-valued fields, empty slices and maps,
// and nil pointers reachable from v.
func zeroFields(v reflect.Value, path string) []string {
	if v.Type() == reflect.TypeFor[time.Time]() {
		if v.Interface().(time.Time).IsZero() {
			return []string{path}
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return []string{path}
		}
		return zeroFields(v.Elem(), path)
	case reflect.Struct:
		var out []string
		for i := range v.NumField() {
			out = append(out, zeroFields(v.Field(i), path+"."+v.Type().Field(i).Name)...)
		}
		return out
	case reflect.Slice:
		if v.Len() == 0 {
			return []string{path}
		}
		var out []string
		for i := range v.Len() {
			out = append(out, zeroFields(v.Index(i), path+"[]")...)
		}
		return out
	case reflect.Map:
		if v.Len() == 0 {
			return []string{path}
		}
		return nil
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

func TestRoundTrip(t *testing.T) {
	for _, p := range eventtest.Payloads {
		t.Run(string(p.EventType()), func(t *testing.T) {
			typ, version, data, err := event.EncodePayload(p)
			if err != nil {
				t.Fatalf("EncodePayload: %v", err)
			}
			if typ != p.EventType() || version != 1 {
				t.Errorf("EncodePayload = %s v%d, want %s v1", typ, version, p.EventType())
			}
			checkSnakeCaseKeys(t, data)
			got, err := event.DecodePayload(typ, version, data)
			if err != nil {
				t.Fatalf("DecodePayload: %v\n%s", err, data)
			}
			if !reflect.DeepEqual(got, p) {
				t.Errorf("round trip mismatch:\n got %#v\nwant %#v\njson %s", got, p, data)
			}
		})
	}
}

// checkSnakeCaseKeys fails t if any object key in the JSON document data is
// not snake_case (lowercase letters, digits and underscores), except keys of
// free-form maps, which are skipped by only checking ASCII keys.
func checkSnakeCaseKeys(t *testing.T, data []byte) {
	t.Helper()
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("encoded payload is not JSON: %v", err)
	}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				ascii := strings.IndexFunc(k, func(r rune) bool { return r > 127 }) < 0
				if ascii && !event.ValidSegment(k) {
					t.Errorf("JSON key %q is not snake_case", k)
				}
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(doc)
}
