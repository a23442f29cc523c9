package negotiate_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/writetest"
)

// TestCommandsRefuseTwins: an agent whose twin answers cannot also answer
// through commands.
func TestCommandsRefuseTwins(t *testing.T) {
	s := script5()
	s.Offer = func(*llm.OfferInput) string { return "" } // let the builtin twin answer
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(5), NoStart: true})
	before := h.Head()
	_, err := h.C.SubmitOffer(context.Background(), "collab-x", "agent_1", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
	if !errors.Is(err, negotiation.ErrNotParticipant) || h.Head() != before {
		t.Fatalf("offer for a twin: %v", err)
	}
	_, err = h.C.SubmitFeedback(context.Background(), "collab-x", "agent_1", 1, writetest.AgentsFeedback(negotiation.FeedbackAccept))
	if !errors.Is(err, negotiation.ErrNotParticipant) || h.Head() != before {
		t.Fatalf("feedback for a twin: %v", err)
	}
}

func TestSubmitDemandRejectsBadInput(t *testing.T) {
	h := writetest.New(t, writetest.Opts{Profiles: writetest.TestProfiles(1), NoStart: true})
	before := h.Head()
	tests := []struct {
		name, input string
		want        error
	}{
		{"empty", "", negotiation.ErrDemandEmpty},
		{"blank", " \n\t ", negotiation.ErrDemandEmpty},
		{"too long", strings.Repeat("需", negotiation.MaxDemandRunes+1), negotiation.ErrDemandInvalid},
		{"not utf-8", "AI \xff 聚会", negotiation.ErrDemandInvalid},
	}
	for _, tc := range tests {
		_, err := h.C.SubmitDemand(context.Background(), "u1", tc.input)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if h.Head() != before {
		t.Fatal("bad input wrote events")
	}
	if _, err := h.C.SubmitDemand(context.Background(), "u1", strings.Repeat("需", negotiation.MaxDemandRunes)); err != nil {
		t.Fatalf("a demand of exactly the maximum length: %v", err)
	}
}

// TestExternalAgentsDriveANegotiation runs a channel whose agents are all
// external: offers and feedback arrive as commands, and every wrong command
// is refused with its code and writes nothing.
func TestExternalAgentsDriveANegotiation(t *testing.T) {
	s := writetest.NewScripted()
	s.Filter = func(in *llm.FilterInput) string { return writetest.CandidatesReply(in, "ext_1", "ext_2") }
	s.Gaps = func(*llm.GapInput) string { return writetest.GapsReply() }
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(0, "ext_1", "ext_2", "ext_3")})
	ctx := context.Background()
	sub, err := h.C.SubmitDemand(ctx, "u1", "需要摄影师")
	if err != nil {
		t.Fatal(err)
	}
	writetest.WaitFor(t, 10*time.Second, func() bool {
		c, _ := h.Channel(ctx, sub.ChannelID)
		return c.Status == negotiation.ChannelStatusCollecting
	})

	refused := func(name string, want error, cmd func() error) { t.Helper(); h.Refused(t, name, want, cmd) }
	refused("unknown channel", negotiation.ErrNotFound, func() error {
		_, err := h.C.SubmitOffer(ctx, "collab-nope", "ext_1", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
		return err
	})
	refused("not invited", negotiation.ErrNotInvited, func() error {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_3", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
		return err
	})
	refused("bad decision", negotiation.ErrInvalidAnswer, func() error {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_1", writetest.AgentsOffer("maybe"))
		return err
	})
	refused("feedback before a proposal", negotiation.ErrFeedbackClosed, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, writetest.AgentsFeedback(negotiation.FeedbackAccept))
		return err
	})
	refused("feedback without its round", negotiation.ErrWrongRound, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 0, writetest.AgentsFeedback(negotiation.FeedbackAccept))
		return err
	})
	refused("unknown agent", negotiation.ErrNotFound, func() error {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "nobody", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
		return err
	})

	if _, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_1", writetest.AgentsOffer(negotiation.OfferDecisionParticipate)); err != nil {
		t.Fatal(err)
	}
	refused("second offer", negotiation.ErrDuplicate, func() error {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_1", writetest.AgentsOffer(negotiation.OfferDecisionDecline))
		return err
	})
	if _, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_2", writetest.AgentsOffer(negotiation.OfferDecisionParticipate)); err != nil {
		t.Fatal(err)
	}
	refused("an agent not invited, after collection closed", negotiation.ErrNotInvited, func() error {
		_, err := h.C.SubmitOffer(ctx, sub.ChannelID, "ext_3", writetest.AgentsOffer(negotiation.OfferDecisionParticipate))
		return err
	})

	writetest.WaitFor(t, 10*time.Second, func() bool {
		c, _ := h.Channel(ctx, sub.ChannelID)
		return c.AwaitingFeedback()
	})
	refused("wrong round", negotiation.ErrWrongRound, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 2, writetest.AgentsFeedback(negotiation.FeedbackAccept))
		return err
	})
	refused("not a participant", negotiation.ErrNotParticipant, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_3", 1, writetest.AgentsFeedback(negotiation.FeedbackAccept))
		return err
	})
	refused("negotiate without a request", negotiation.ErrInvalidAnswer, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, writetest.AgentsFeedback(negotiation.FeedbackNegotiate))
		return err
	})

	if _, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, writetest.AgentsFeedback(negotiation.FeedbackAccept)); err != nil {
		t.Fatal(err)
	}
	refused("second feedback", negotiation.ErrDuplicate, func() error {
		_, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_1", 1, writetest.AgentsFeedback(negotiation.FeedbackWithdraw))
		return err
	})
	if _, err := h.C.SubmitFeedback(ctx, sub.ChannelID, "ext_2", 1, writetest.AgentsFeedback(negotiation.FeedbackAccept)); err != nil {
		t.Fatal(err)
	}
	c := h.Wait(sub.DemandID, 20*time.Second).Channel
	if c.Status != negotiation.ChannelStatusFinalized {
		t.Fatalf("status %s:\n%s", c.Status, h.Timeline(sub.DemandID))
	}
	for _, e := range h.Events(sub.DemandID) {
		if e.Type == negotiation.EventOfferSubmitted && e.Metadata.LLMCall != nil {
			t.Fatal("an external agent's offer carries an LLM call")
		}
	}
	h.Check(sub.DemandID)
}

// TestCrashAndResume stops the River client while an LLM call is in flight
// (between the call and its commit), starts a new write side on the same
// database, and checks the negotiation completes with no lost and no
// duplicated events.
func TestCrashAndResume(t *testing.T) {
	s := script5()
	s.Feedback = perRound([]negotiation.FeedbackType{A, A, A, N, N}, []negotiation.FeedbackType{A, A, A, A, A})
	s.SetBlock(llm.PromptAdjust, true) // the adjust step of round 2 hangs
	h := writetest.New(t, writetest.Opts{Provider: s, Profiles: writetest.TestProfiles(5), NoStart: true})
	ctx := context.Background()
	runCtx, cancel := context.WithCancel(ctx)
	if err := h.W.Start(runCtx); err != nil {
		t.Fatal(err)
	}
	sub, err := h.C.SubmitDemand(ctx, "u1", "需要5位摄影师")
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Blocked:
	case <-time.After(20 * time.Second):
		t.Fatalf("the adjust call never came:\n%s", h.Timeline(sub.DemandID))
	}
	// Crash: cancel the in-flight job and stop the client.
	stopCtx, c := context.WithTimeout(ctx, 10*time.Second)
	if err := h.W.StopAndCancel(stopCtx); err != nil {
		t.Fatal(err)
	}
	c()
	cancel()
	mid, _ := h.Channel(ctx, sub.ChannelID)
	if !mid.AwaitingAdjustment() {
		t.Fatalf("expected the crash while awaiting the adjustment, status %s", mid.Status)
	}

	// Restart: a new write side (new River client) on the same database.
	s.SetBlock(llm.PromptAdjust, false)
	h2 := h.Restart()
	c2 := h2.Wait(sub.DemandID, 60*time.Second).Channel
	if c2.Status != negotiation.ChannelStatusFinalized || c2.Round != 2 {
		t.Fatalf("after restart: status %s round %d:\n%s", c2.Status, c2.Round, h2.Timeline(sub.DemandID))
	}
	h2.Check(sub.DemandID)
}
