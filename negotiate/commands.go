package negotiate

import (
	"context"
	"errors"
	"fmt"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/uow"
)

// Commands are the negotiation's commands: a user's demand and an
// external agent's offer and feedback. They write through the same unit of
// work as the steps, so a command's events set off their follow-up jobs
// exactly as a step's do. Safe for concurrent use.
type Commands struct {
	p *Process
}

// NewCommands returns the commands of p.
func NewCommands(p *Process) *Commands { return &Commands{p: p} }

// SubmitDemand starts a negotiation for a user's demand. An empty demand is
// negotiation.ErrDemandEmpty (TOWOW_DEMAND_002), one over negotiation.MaxDemandRunes
// characters negotiation.ErrDemandInvalid; nothing is written then.
func (s *Commands) SubmitDemand(ctx context.Context, userID, rawInput string) (negotiation.DemandSubmission, error) {
	return s.submit(ctx, negotiation.SubmitDemand{UserID: userID, RawInput: rawInput})
}

// ClarifyDemand answers a rejected demand's questions: it submits a new
// demand, of the same user, whose text is the rejected one's with the
// answer, linked to it (clarifies). Errors are *event.Error: ErrNotFound,
// ErrNothingToClarify (the demand was not rejected), ErrDemandEmpty.
// Nothing is written on error.
func (s *Commands) ClarifyDemand(ctx context.Context, demandID, answer string) (negotiation.DemandSubmission, error) {
	d := &negotiation.DemandState{}
	if _, err := s.p.store.Fold(ctx, negotiation.DemandStream(demandID), d.Apply); err != nil {
		return negotiation.DemandSubmission{}, err
	}
	raw, err := d.Clarified(answer)
	if err != nil {
		return negotiation.DemandSubmission{}, err
	}
	return s.submit(ctx, negotiation.SubmitDemand{UserID: d.UserID, RawInput: raw, Clarifies: demandID})
}

// submit decides cmd under a new demand id.
func (s *Commands) submit(ctx context.Context, cmd negotiation.SubmitDemand) (negotiation.DemandSubmission, error) {
	userID := cmd.UserID
	for range 5 {
		id, err := NewDemandID()
		if err != nil {
			return negotiation.DemandSubmission{}, err
		}
		pos, err := s.p.demandStep(ctx, "submit demand", id, event.UserActor(userID), "user:"+userID, nil, "",
			func(d *negotiation.DemandState) ([]event.Payload, error) {
				cmd.DemandID = id
				return d.Submit(cmd)
			})
		if errors.Is(err, negotiation.ErrDuplicate) {
			continue // an id collision: draw another
		}
		if err != nil {
			return negotiation.DemandSubmission{}, err
		}
		return negotiation.DemandSubmission{DemandID: id, ChannelID: negotiation.ChannelIDFor(id), Position: pos}, nil
	}
	return negotiation.DemandSubmission{}, errors.New("submit demand: could not draw an unused demand id")
}

// NewDemandID draws a demand id: "d-" and 12 hex digits (a submitted
// demand's, a fork's copy's).
func NewDemandID() (string, error) { return uow.NewID("d-", 6) }

// SubmitOffer records an external agent's offer. Errors are *event.Error:
// ErrNotFound (no such channel), ErrNotInvited, ErrDuplicate,
// ErrOffersClosed (collection over), ErrInvalidAnswer. Nothing is written
// on error. It returns the position written.
func (s *Commands) SubmitOffer(ctx context.Context, channelID, agentID string, answer negotiation.OfferAnswer) (int64, error) {
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	o := negotiation.Offer{AgentID: agentID, OfferAnswer: answer}
	return s.p.channelStep(ctx, "submit offer", channelID, event.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) { return c.SubmitOffer(o, "", s.p.cfg.Now()) })
}

// SubmitFeedback records an external agent's feedback on the proposal of
// round (1 or more; it is required, so that an answer that arrives after its
// round closed is refused, negotiation.ErrWrongRound, instead of counting for
// the next proposal). Errors are *event.Error: ErrNotFound,
// ErrNotParticipant, ErrWrongRound, ErrDuplicate, ErrFeedbackClosed,
// ErrInvalidAnswer. Nothing is written on error. It returns the position
// written.
func (s *Commands) SubmitFeedback(ctx context.Context, channelID, agentID string, round int, answer negotiation.FeedbackAnswer) (int64, error) {
	if round < 1 {
		return 0, &event.Error{Code: negotiation.ErrWrongRound.Code, Message: "feedback must name the round it answers (1 or more)"}
	}
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	f := negotiation.ProposalFeedback{AgentID: agentID, FeedbackAnswer: answer}
	return s.p.channelStep(ctx, "submit feedback", channelID, event.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *negotiation.Channel) ([]event.Payload, error) {
			return c.SubmitFeedback(f, round, s.p.cfg.Now())
		})
}

// requireAnswerer refuses an answer unless agentID is an external agent
// and channelID exists (the domain decides the rest: invited, round, ...).
func (s *Commands) requireAnswerer(ctx context.Context, channelID, agentID string) error {
	if err := s.p.dir.RequireExternal(ctx, agentID); err != nil {
		return err
	}
	return s.requireChannel(ctx, channelID)
}

func (s *Commands) requireChannel(ctx context.Context, channelID string) error {
	v, err := s.p.store.StreamVersion(ctx, negotiation.ChannelStream(channelID))
	if err != nil {
		return err
	}
	if v == 0 {
		return &event.Error{Code: negotiation.ErrNotFound.Code, Message: fmt.Sprintf("channel %s does not exist", channelID)}
	}
	return nil
}
