package agents_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/llm"
)

func (h *harness) head() int64 {
	h.t.Helper()
	p, err := h.store.HeadPosition(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	return p
}

// TestCommandsRefuseTwins: an agent whose twin answers cannot also answer
// through commands.
func TestCommandsRefuseTwins(t *testing.T) {
	s := script5()
	s.offer = func(*llm.OfferInput) string { return "" } // let the builtin twin answer
	h := newHarness(t, opts{provider: s, profiles: testProfiles(5), noStart: true})
	before := h.head()
	_, err := h.c.SubmitOffer(context.Background(), "collab-x", "agent_1", agentsOffer(domain.OfferDecisionParticipate))
	if !errors.Is(err, domain.ErrNotParticipant) || h.head() != before {
		t.Fatalf("offer for a twin: %v", err)
	}
	_, err = h.c.SubmitFeedback(context.Background(), "collab-x", "agent_1", 1, agentsFeedback(domain.FeedbackAccept))
	if !errors.Is(err, domain.ErrNotParticipant) || h.head() != before {
		t.Fatalf("feedback for a twin: %v", err)
	}
}

func TestSubmitDemandRejectsBadInput(t *testing.T) {
	h := newHarness(t, opts{profiles: testProfiles(1), noStart: true})
	before := h.head()
	tests := []struct {
		name, input string
		want        error
	}{
		{"empty", "", domain.ErrDemandEmpty},
		{"blank", " \n\t ", domain.ErrDemandEmpty},
		{"too long", strings.Repeat("需", domain.MaxDemandRunes+1), domain.ErrDemandInvalid},
		{"not utf-8", "AI \xff 聚会", domain.ErrDemandInvalid},
	}
	for _, tc := range tests {
		_, err := h.c.SubmitDemand(context.Background(), "u1", tc.input)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if h.head() != before {
		t.Fatal("bad input wrote events")
	}
	if _, err := h.c.SubmitDemand(context.Background(), "u1", strings.Repeat("需", domain.MaxDemandRunes)); err != nil {
		t.Fatalf("a demand of exactly the maximum length: %v", err)
	}
}

// TestExternalAgentsDriveANegotiation runs a channel whose agents are all
// external: offers and feedback arrive as commands, and every wrong command
// is refused with its code and writes nothing.
func TestExternalAgentsDriveANegotiation(t *testing.T) {
	s := newScripted()
	s.filter = func(in *llm.FilterInput) string { return candidatesReply(in, "ext_1", "ext_2") }
	s.gaps = func(*llm.GapInput) string { return gapsReply() }
	h := newHarness(t, opts{provider: s, profiles: testProfiles(0, "ext_1", "ext_2", "ext_3")})
	ctx := context.Background()
	sub, err := h.c.SubmitDemand(ctx, "u1", "需要摄影师")
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, func() bool {
		c, _ := h.channel(ctx, sub.ChannelID)
		return c.Status == domain.ChannelStatusCollecting
	})

	refused := func(name string, want error, cmd func() error) { t.Helper(); h.refused(t, name, want, cmd) }
	refused("unknown channel", domain.ErrNotFound, func() error {
		_, err := h.c.SubmitOffer(ctx, "collab-nope", "ext_1", agentsOffer(domain.OfferDecisionParticipate))
		return err
	})
	refused("not invited", domain.ErrNotInvited, func() error {
		_, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_3", agentsOffer(domain.OfferDecisionParticipate))
		return err
	})
	refused("bad decision", domain.ErrInvalidAnswer, func() error { _, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_1", agentsOffer("maybe")); return err })
	refused("feedback before a proposal", domain.ErrFeedbackClosed, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, agentsFeedback(domain.FeedbackAccept))
		return err
	})
	refused("feedback without its round", domain.ErrWrongRound, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 0, agentsFeedback(domain.FeedbackAccept))
		return err
	})
	refused("unknown agent", domain.ErrNotFound, func() error {
		_, err := h.c.SubmitOffer(ctx, sub.ChannelID, "nobody", agentsOffer(domain.OfferDecisionParticipate))
		return err
	})

	if _, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_1", agentsOffer(domain.OfferDecisionParticipate)); err != nil {
		t.Fatal(err)
	}
	refused("second offer", domain.ErrDuplicate, func() error {
		_, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_1", agentsOffer(domain.OfferDecisionDecline))
		return err
	})
	if _, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_2", agentsOffer(domain.OfferDecisionParticipate)); err != nil {
		t.Fatal(err)
	}
	refused("an agent not invited, after collection closed", domain.ErrNotInvited, func() error {
		_, err := h.c.SubmitOffer(ctx, sub.ChannelID, "ext_3", agentsOffer(domain.OfferDecisionParticipate))
		return err
	})

	waitFor(t, 10*time.Second, func() bool {
		c, _ := h.channel(ctx, sub.ChannelID)
		return c.AwaitingFeedback()
	})
	refused("wrong round", domain.ErrWrongRound, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 2, agentsFeedback(domain.FeedbackAccept))
		return err
	})
	refused("not a participant", domain.ErrNotParticipant, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_3", 1, agentsFeedback(domain.FeedbackAccept))
		return err
	})
	refused("negotiate without a request", domain.ErrInvalidAnswer, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, agentsFeedback(domain.FeedbackNegotiate))
		return err
	})

	if _, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, agentsFeedback(domain.FeedbackAccept)); err != nil {
		t.Fatal(err)
	}
	refused("second feedback", domain.ErrDuplicate, func() error {
		_, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, agentsFeedback(domain.FeedbackWithdraw))
		return err
	})
	if _, err := h.c.SubmitFeedback(ctx, sub.ChannelID, "ext_2", 1, agentsFeedback(domain.FeedbackAccept)); err != nil {
		t.Fatal(err)
	}
	c := h.wait(sub.DemandID, 20*time.Second).channel
	if c.Status != domain.ChannelStatusFinalized {
		t.Fatalf("status %s:\n%s", c.Status, h.timeline(sub.DemandID))
	}
	for _, e := range h.events(sub.DemandID) {
		if e.Type == domain.EventOfferSubmitted && e.Metadata.LLMCall != nil {
			t.Fatal("an external agent's offer carries an LLM call")
		}
	}
	h.check(sub.DemandID)
}

func agentsFeedback(ft domain.FeedbackType) domain.FeedbackAnswer {
	return domain.FeedbackAnswer{FeedbackType: ft, Reasoning: "external"}
}

func waitFor(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCrashAndResume stops the River client while an LLM call is in flight
// (between the call and its commit), starts a new engine on the same
// database, and checks the negotiation completes with no lost and no
// duplicated events.
func TestCrashAndResume(t *testing.T) {
	s := script5()
	s.feedback = perRound([]domain.FeedbackType{A, A, A, N, N}, []domain.FeedbackType{A, A, A, A, A})
	s.setBlock(llm.PromptAdjust, true) // the adjust step of round 2 hangs
	h := newHarness(t, opts{provider: s, profiles: testProfiles(5), noStart: true})
	ctx := context.Background()
	runCtx, cancel := context.WithCancel(ctx)
	if err := h.e.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	sub, err := h.c.SubmitDemand(ctx, "u1", "需要5位摄影师")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.blocked:
	case <-time.After(20 * time.Second):
		t.Fatalf("the adjust call never came:\n%s", h.timeline(sub.DemandID))
	}
	// Crash: cancel the in-flight job and stop the client.
	stopCtx, c := context.WithTimeout(ctx, 10*time.Second)
	if err := h.e.StopAndCancel(stopCtx); err != nil {
		t.Fatal(err)
	}
	c()
	cancel()
	mid, _ := h.channel(ctx, sub.ChannelID)
	if !mid.AwaitingAdjustment() {
		t.Fatalf("expected the crash while awaiting the adjustment, status %s", mid.Status)
	}

	// Restart: a new engine (new River client) on the same database.
	s.setBlock(llm.PromptAdjust, false)
	h2 := h.restart()
	c2 := h2.wait(sub.DemandID, 60*time.Second).channel
	if c2.Status != domain.ChannelStatusFinalized || c2.Round != 2 {
		t.Fatalf("after restart: status %s round %d:\n%s", c2.Status, c2.Round, h2.timeline(sub.DemandID))
	}
	h2.check(sub.DemandID)
}

// refused runs a command and checks that it failed with want and wrote
// nothing: no event by an agent (the commands' actor) after it started;
// the engine's own steps may go on meanwhile.
func (h *harness) refused(t *testing.T, name string, want error, cmd func() error) {
	t.Helper()
	before := h.head()
	if err := cmd(); !errors.Is(err, want) {
		t.Fatalf("%s: %v, want %v", name, err, want)
	}
	evs, err := h.store.ReadAll(context.Background(), before, eventstore.Filter{}, eventstore.MaxReadLimit)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		if strings.HasPrefix(e.Metadata.Actor, "agent:") {
			t.Fatalf("%s: wrote %s by %s", name, e.Type, e.Metadata.Actor)
		}
	}
}
