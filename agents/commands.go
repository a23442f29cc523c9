package agents

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/towow/towow/domain"
)

// Submitted is the result of SubmitDemand.
type Submitted struct {
	DemandID  string
	ChannelID string // the channel the demand will get
	// Position is the global position of the submitted event: reads that
	// must see it wait for the read models to reach it.
	Position int64
}

// SubmitDemand starts a negotiation for a user's demand. An empty demand is
// domain.ErrDemandEmpty (TOWOW_DEMAND_002), one over domain.MaxDemandRunes
// characters domain.ErrDemandInvalid; nothing is written then.
func (e *Engine) SubmitDemand(ctx context.Context, userID, rawInput string) (Submitted, error) {
	for range 5 {
		id, err := newDemandID()
		if err != nil {
			return Submitted{}, err
		}
		pos, err := e.demandStep(ctx, "submit demand", id, domain.UserActor(userID), "user:"+userID, nil, "",
			func(d *domain.DemandState) ([]domain.Payload, error) {
				return d.Submit(domain.SubmitDemand{DemandID: id, UserID: userID, RawInput: rawInput})
			})
		if errors.Is(err, domain.ErrDuplicate) {
			continue // an id collision: draw another
		}
		if err != nil {
			return Submitted{}, err
		}
		return Submitted{DemandID: id, ChannelID: domain.ChannelIDFor(id), Position: pos}, nil
	}
	return Submitted{}, errors.New("submit demand: could not draw an unused demand id")
}

func newDemandID() (string, error) {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("demand id: %w", err)
	}
	return "d-" + hex.EncodeToString(b[:]), nil
}

// OfferCommand is an external agent's offer.
type OfferCommand struct {
	Decision      domain.OfferDecision
	Contribution  string
	Conditions    []string
	Reasoning     string
	DeclineReason string
	Confidence    int
}

// SubmitOffer records an external agent's offer. Errors are *domain.Error:
// ErrNotFound (no such channel), ErrNotInvited, ErrDuplicate,
// ErrOffersClosed (collection over), ErrInvalidAnswer. Nothing is written
// on error. It returns the position written.
func (e *Engine) SubmitOffer(ctx context.Context, channelID, agentID string, cmd OfferCommand) (int64, error) {
	if err := e.requireExternal(ctx, agentID); err != nil {
		return 0, err
	}
	if err := e.requireChannel(ctx, channelID); err != nil {
		return 0, err
	}
	o := domain.Offer{AgentID: agentID, OfferAnswer: domain.OfferAnswer{Decision: cmd.Decision, Contribution: cmd.Contribution,
		Conditions: cmd.Conditions, Reasoning: cmd.Reasoning, DeclineReason: cmd.DeclineReason, Confidence: cmd.Confidence}}
	return e.channelStep(ctx, "submit offer", channelID, domain.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitOffer(o, "", e.cfg.Now()) })
}

// FeedbackCommand is an external agent's feedback on the current proposal.
type FeedbackCommand struct {
	// Round is the round the feedback answers; it is required, so that an
	// answer that arrives after its round closed is refused
	// (domain.ErrWrongRound) instead of counting for the next proposal.
	Round             int
	FeedbackType      domain.FeedbackType
	Reasoning         string
	AdjustmentRequest string
	Concerns          []string
	Confidence        int
}

// SubmitFeedback records an external agent's feedback. Errors are
// *domain.Error: ErrNotFound, ErrNotParticipant, ErrWrongRound,
// ErrDuplicate, ErrFeedbackClosed, ErrInvalidAnswer. Nothing is written on
// error. It returns the position written.
func (e *Engine) SubmitFeedback(ctx context.Context, channelID, agentID string, cmd FeedbackCommand) (int64, error) {
	if cmd.Round < 1 {
		return 0, &domain.Error{Code: domain.ErrWrongRound.Code, Message: "feedback must name the round it answers (1 or more)"}
	}
	if err := e.requireExternal(ctx, agentID); err != nil {
		return 0, err
	}
	if err := e.requireChannel(ctx, channelID); err != nil {
		return 0, err
	}
	f := domain.ProposalFeedback{AgentID: agentID, FeedbackAnswer: domain.FeedbackAnswer{FeedbackType: cmd.FeedbackType,
		Reasoning: cmd.Reasoning, AdjustmentRequest: cmd.AdjustmentRequest, Concerns: cmd.Concerns, Confidence: cmd.Confidence}}
	return e.channelStep(ctx, "submit feedback", channelID, domain.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitFeedback(f, cmd.Round) })
}

// requireExternal refuses commands for an agent whose twin answers (its
// answers come from the engine) or that does not exist.
func (e *Engine) requireExternal(ctx context.Context, agentID string) error {
	p, _, ok, err := e.dir.Get(ctx, agentID)
	switch {
	case err != nil:
		return err
	case !ok:
		return &domain.Error{Code: domain.ErrNotFound.Code, Message: fmt.Sprintf("agent %s does not exist", agentID)}
	case !p.IsExternal():
		return &domain.Error{Code: domain.ErrNotParticipant.Code, Message: fmt.Sprintf("agent %s is answered by its twin, not by commands", agentID)}
	}
	return nil
}

func (e *Engine) requireChannel(ctx context.Context, channelID string) error {
	v, err := e.store.StreamVersion(ctx, domain.ChannelStream(channelID))
	if err != nil {
		return err
	}
	if v == 0 {
		return &domain.Error{Code: domain.ErrNotFound.Code, Message: fmt.Sprintf("channel %s does not exist", channelID)}
	}
	return nil
}

// Channel returns a channel folded from its events, decoded afresh: the
// caller owns it (it shares nothing with the engine's event cache).
func (e *Engine) Channel(ctx context.Context, channelID string) (*domain.Channel, error) {
	c := &domain.Channel{}
	_, err := foldFresh(ctx, e.store, domain.ChannelStream(channelID), c.Apply)
	return c, err
}

// Demand returns a demand folded from its events, decoded afresh.
func (e *Engine) Demand(ctx context.Context, demandID string) (*domain.DemandState, error) {
	d := &domain.DemandState{}
	_, err := foldFresh(ctx, e.store, domain.DemandStream(demandID), d.Apply)
	return d, err
}
