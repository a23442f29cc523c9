package negotiate

import (
	"context"
	"errors"
	"fmt"

	"github.com/towow/towow/domain"
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
// domain.ErrDemandEmpty (TOWOW_DEMAND_002), one over domain.MaxDemandRunes
// characters domain.ErrDemandInvalid; nothing is written then.
func (s *Commands) SubmitDemand(ctx context.Context, userID, rawInput string) (domain.DemandSubmission, error) {
	return s.submit(ctx, domain.SubmitDemand{UserID: userID, RawInput: rawInput})
}

// ClarifyDemand answers a rejected demand's questions: it submits a new
// demand, of the same user, whose text is the rejected one's with the
// answer, linked to it (clarifies). Errors are *domain.Error: ErrNotFound,
// ErrNothingToClarify (the demand was not rejected), ErrDemandEmpty.
// Nothing is written on error.
func (s *Commands) ClarifyDemand(ctx context.Context, demandID, answer string) (domain.DemandSubmission, error) {
	d := &domain.DemandState{}
	if _, err := s.p.store.Fold(ctx, domain.DemandStream(demandID), d.Apply); err != nil {
		return domain.DemandSubmission{}, err
	}
	raw, err := d.Clarified(answer)
	if err != nil {
		return domain.DemandSubmission{}, err
	}
	return s.submit(ctx, domain.SubmitDemand{UserID: d.UserID, RawInput: raw, Clarifies: demandID})
}

// submit decides cmd under a new demand id.
func (s *Commands) submit(ctx context.Context, cmd domain.SubmitDemand) (domain.DemandSubmission, error) {
	userID := cmd.UserID
	for range 5 {
		id, err := newDemandID()
		if err != nil {
			return domain.DemandSubmission{}, err
		}
		pos, err := s.p.demandStep(ctx, "submit demand", id, domain.UserActor(userID), "user:"+userID, nil, "",
			func(d *domain.DemandState) ([]domain.Payload, error) {
				cmd.DemandID = id
				return d.Submit(cmd)
			})
		if errors.Is(err, domain.ErrDuplicate) {
			continue // an id collision: draw another
		}
		if err != nil {
			return domain.DemandSubmission{}, err
		}
		return domain.DemandSubmission{DemandID: id, ChannelID: domain.ChannelIDFor(id), Position: pos}, nil
	}
	return domain.DemandSubmission{}, errors.New("submit demand: could not draw an unused demand id")
}

// newDemandID draws a demand id: "d-" and 12 hex digits.
func newDemandID() (string, error) { return uow.NewID("d-", 6) }

// SubmitOffer records an external agent's offer. Errors are *domain.Error:
// ErrNotFound (no such channel), ErrNotInvited, ErrDuplicate,
// ErrOffersClosed (collection over), ErrInvalidAnswer. Nothing is written
// on error. It returns the position written.
func (s *Commands) SubmitOffer(ctx context.Context, channelID, agentID string, answer domain.OfferAnswer) (int64, error) {
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	o := domain.Offer{AgentID: agentID, OfferAnswer: answer}
	return s.p.channelStep(ctx, "submit offer", channelID, domain.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitOffer(o, "", s.p.cfg.Now()) })
}

// SubmitFeedback records an external agent's feedback on the proposal of
// round (1 or more; it is required, so that an answer that arrives after its
// round closed is refused, domain.ErrWrongRound, instead of counting for
// the next proposal). Errors are *domain.Error: ErrNotFound,
// ErrNotParticipant, ErrWrongRound, ErrDuplicate, ErrFeedbackClosed,
// ErrInvalidAnswer. Nothing is written on error. It returns the position
// written.
func (s *Commands) SubmitFeedback(ctx context.Context, channelID, agentID string, round int, answer domain.FeedbackAnswer) (int64, error) {
	if round < 1 {
		return 0, &domain.Error{Code: domain.ErrWrongRound.Code, Message: "feedback must name the round it answers (1 or more)"}
	}
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	f := domain.ProposalFeedback{AgentID: agentID, FeedbackAnswer: answer}
	return s.p.channelStep(ctx, "submit feedback", channelID, domain.AgentActor(agentID), "agent:"+agentID, nil, "",
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitFeedback(f, round, s.p.cfg.Now()) })
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
	v, err := s.p.store.StreamVersion(ctx, domain.ChannelStream(channelID))
	if err != nil {
		return err
	}
	if v == 0 {
		return &domain.Error{Code: domain.ErrNotFound.Code, Message: fmt.Sprintf("channel %s does not exist", channelID)}
	}
	return nil
}
