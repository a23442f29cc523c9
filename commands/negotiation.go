package commands

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/towow/towow/domain"
)

// SubmitDemand starts a negotiation for a user's demand. An empty demand is
// domain.ErrDemandEmpty (TOWOW_DEMAND_002), one over domain.MaxDemandRunes
// characters domain.ErrDemandInvalid; nothing is written then.
func (s *Service) SubmitDemand(ctx context.Context, userID, rawInput string) (domain.DemandSubmission, error) {
	return s.submit(ctx, domain.SubmitDemand{UserID: userID, RawInput: rawInput})
}

// ClarifyDemand answers a rejected demand's questions: it submits a new
// demand, of the same user, whose text is the rejected one's with the
// answer, linked to it (clarifies). Errors are *domain.Error: ErrNotFound,
// ErrNothingToClarify (the demand was not rejected), ErrDemandEmpty.
// Nothing is written on error.
func (s *Service) ClarifyDemand(ctx context.Context, demandID, answer string) (domain.DemandSubmission, error) {
	d := &domain.DemandState{}
	if _, err := s.store.Fold(ctx, domain.DemandStream(demandID), d.Apply); err != nil {
		return domain.DemandSubmission{}, err
	}
	raw, err := d.Clarified(answer)
	if err != nil {
		return domain.DemandSubmission{}, err
	}
	return s.submit(ctx, domain.SubmitDemand{UserID: d.UserID, RawInput: raw, Clarifies: demandID})
}

// submit decides cmd under a new demand id.
func (s *Service) submit(ctx context.Context, cmd domain.SubmitDemand) (domain.DemandSubmission, error) {
	userID := cmd.UserID
	for range 5 {
		id, err := newDemandID()
		if err != nil {
			return domain.DemandSubmission{}, err
		}
		pos, err := s.engine.DecideDemand(ctx, "submit demand", id, domain.UserActor(userID), "user:"+userID,
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
func newDemandID() (string, error) { return newID("d-", 6) }

// SubmitOffer records an external agent's offer. Errors are *domain.Error:
// ErrNotFound (no such channel), ErrNotInvited, ErrDuplicate,
// ErrOffersClosed (collection over), ErrInvalidAnswer. Nothing is written
// on error. It returns the position written.
func (s *Service) SubmitOffer(ctx context.Context, channelID, agentID string, answer domain.OfferAnswer) (int64, error) {
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	o := domain.Offer{AgentID: agentID, OfferAnswer: answer}
	return s.engine.DecideChannel(ctx, "submit offer", channelID, domain.AgentActor(agentID), "agent:"+agentID,
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitOffer(o, "", s.now()) })
}

// SubmitFeedback records an external agent's feedback on the proposal of
// round (1 or more; it is required, so that an answer that arrives after its
// round closed is refused, domain.ErrWrongRound, instead of counting for
// the next proposal). Errors are *domain.Error: ErrNotFound,
// ErrNotParticipant, ErrWrongRound, ErrDuplicate, ErrFeedbackClosed,
// ErrInvalidAnswer. Nothing is written on error. It returns the position
// written.
func (s *Service) SubmitFeedback(ctx context.Context, channelID, agentID string, round int, answer domain.FeedbackAnswer) (int64, error) {
	if round < 1 {
		return 0, &domain.Error{Code: domain.ErrWrongRound.Code, Message: "feedback must name the round it answers (1 or more)"}
	}
	if err := s.requireAnswerer(ctx, channelID, agentID); err != nil {
		return 0, err
	}
	f := domain.ProposalFeedback{AgentID: agentID, FeedbackAnswer: answer}
	return s.engine.DecideChannel(ctx, "submit feedback", channelID, domain.AgentActor(agentID), "agent:"+agentID,
		func(c *domain.Channel) ([]domain.Payload, error) { return c.SubmitFeedback(f, round, s.now()) })
}

// requireAnswerer refuses an answer unless agentID is an external agent
// and channelID exists (the domain decides the rest: invited, round, ...).
func (s *Service) requireAnswerer(ctx context.Context, channelID, agentID string) error {
	if err := s.requireExternal(ctx, agentID); err != nil {
		return err
	}
	return s.requireChannel(ctx, channelID)
}

// requireExternal refuses commands for an agent whose twin answers (its
// answers come from the engine) or that does not exist.
func (s *Service) requireExternal(ctx context.Context, agentID string) error {
	p, _, ok, err := s.dir.Get(ctx, agentID)
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

func (s *Service) requireChannel(ctx context.Context, channelID string) error {
	v, err := s.store.StreamVersion(ctx, domain.ChannelStream(channelID))
	if err != nil {
		return err
	}
	if v == 0 {
		return &domain.Error{Code: domain.ErrNotFound.Code, Message: fmt.Sprintf("channel %s does not exist", channelID)}
	}
	return nil
}

// Fork starts a fork of root demand demandID's negotiation after cursor at
// with one change (issue 15): a new negotiation tree whose history up to
// at is the original's, going on from there with the change applied and
// the original's LLM answers reused wherever its change did not reach. It
// returns the fork's root demand id and the last position written.
// Errors are *domain.Error: ErrNotFound, ErrForkPoint, ErrForkChange;
// nothing is written then.
func (s *Service) Fork(ctx context.Context, demandID string, at int64, change domain.ForkChange) (string, int64, error) {
	if !slices.Contains(domain.ForkChangeTypes, change.Type) {
		return "", 0, &domain.Error{Code: domain.ErrForkChange.Code, Message: fmt.Sprintf("unknown change %q", change.Type)}
	}
	if change.NeedsAgent() && strings.TrimSpace(change.AgentID) == "" {
		return "", 0, &domain.Error{Code: domain.ErrForkChange.Code, Message: fmt.Sprintf("%s needs an agent_id", change.Type)}
	}
	id, err := newDemandID()
	if err != nil {
		return "", 0, err
	}
	pos, err := s.engine.Fork(ctx, demandID, id, at, change)
	if err != nil {
		return "", 0, err
	}
	return id, pos, nil
}
