package main

import (
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
)

// TestDescribePresence: the timeline names the agent and says what its
// presence event means.
func TestDescribePresence(t *testing.T) {
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		p              domain.Payload
		agent, summary string
	}{
		{&domain.AgentOnline{AgentID: "user_agent_ext", AgentType: domain.AgentTypeUserAgent, Capabilities: []string{"场地", "嘉宾"}, OnlineAt: at},
			"user_agent_ext", "online: 场地, 嘉宾"},
		{&domain.AgentOffline{AgentID: "user_agent_ext", Reason: "silent for 5m0s", LastContactAt: at, OfflineAt: at.Add(5 * time.Minute)},
			"user_agent_ext", "offline: silent for 5m0s"},
	}
	for _, tt := range tests {
		ev, err := eventstore.NewEvent(uuid.New(), tt.p, domain.Metadata{})
		if err != nil {
			t.Fatal(err)
		}
		rec := eventstore.RecordedEvent{Type: ev.Type, Payload: ev.Payload, Metadata: ev.Metadata}
		if _, agent, summary := describeEvent(rec); agent != tt.agent || summary != tt.summary {
			t.Errorf("%s: %q %q, want %q %q", tt.p.EventType(), agent, summary, tt.agent, tt.summary)
		}
	}
}
