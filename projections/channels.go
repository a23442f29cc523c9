package projections

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Channels keeps one row per channel (status, round, proposal version,
// invited agents, final participants, parent link) plus every proposal
// version, every offer and every feedback of each channel.
type Channels struct{ modelMethods[Channels] }

// Model declares the channels read model.
func (Channels) Model() Model { return channelsModel }

var channelsModel = Model{
	Name: "channels",
	Types: []event.EventType{negotiation.EventChannelCreated, negotiation.EventChannelInviteSent, negotiation.EventChannelStatusChanged, negotiation.EventOfferSubmitted,
		negotiation.EventProposalDistributed, negotiation.EventProposalFeedback, negotiation.EventProposalFinalized,
		negotiation.EventNegotiationForceFinalized, negotiation.EventNegotiationCompleted},
	Apply:    applyChannel,
	Reset:    (*sqlcdb.Queries).DeleteChannels,
	Rebuild:  rebuildChannels,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumChannels),
}

func applyChannel(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p event.Payload) error {
	switch x := p.(type) {
	case *negotiation.ChannelCreated:
		root := x.RootDemandID
		if root == "" {
			root = cmp.Or(e.Metadata.CorrelationID, x.DemandID)
		}
		invited, err := jsonArray(x.InvitedAgents)
		if err != nil {
			return err
		}
		return q.InsertChannel(ctx, sqlcdb.InsertChannelParams{ChannelID: x.ChannelID, DemandID: x.DemandID,
			RootDemandID: root, ParentChannelID: text(x.ParentChannel), Depth: int32(x.RecursionDepth),
			Invited: invited, Position: e.Position, RecordedAt: e.RecordedAt})
	case *negotiation.ChannelInviteSent: // a candidate added after the channel opened (a fork's add_agent)
		if x.Broadcast {
			return nil // a created candidate's invitation: counted from towow.channel.created
		}
		return q.AddChannelInvitee(ctx, sqlcdb.AddChannelInviteeParams{AgentID: x.AgentID, Position: e.Position,
			RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.ChannelStatusChanged:
		return q.SetChannelStatus(ctx, sqlcdb.SetChannelStatusParams{Status: string(x.NewStatus),
			Position: e.Position, RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.NegotiationCompleted:
		return q.SetChannelStatus(ctx, sqlcdb.SetChannelStatusParams{Status: string(x.Status),
			Position: e.Position, RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.ProposalDistributed:
		typ := x.Proposal.Type
		if typ == "" {
			typ = negotiation.ProposalTypeNormal
		}
		if err := q.InsertProposal(ctx, sqlcdb.InsertProposalParams{ChannelID: x.ChannelID, Version: int32(x.Proposal.Version),
			Round: int32(x.Round), Type: string(typ), Payload: e.Payload, Position: e.Position, RecordedAt: e.RecordedAt}); err != nil {
			return err
		}
		return q.SetChannelProposal(ctx, sqlcdb.SetChannelProposalParams{ProposalVersion: int32(x.Proposal.Version),
			CurrentRound: int32(x.Round), Position: e.Position, RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.ProposalFinalized:
		participants, err := jsonArray(x.Participants)
		if err != nil {
			return err
		}
		return q.FinalizeChannel(ctx, sqlcdb.FinalizeChannelParams{Participants: participants,
			RoundsTaken: pgtype.Int4{Int32: int32(x.RoundsTaken), Valid: true},
			Position:    e.Position, RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.NegotiationForceFinalized:
		participants, err := jsonArray(append(slices.Clone(x.ConfirmedParticipants), x.OptionalParticipants...))
		if err != nil {
			return err
		}
		optional, err := jsonArray(x.OptionalParticipants)
		if err != nil {
			return err
		}
		return q.FinalizeChannel(ctx, sqlcdb.FinalizeChannelParams{Participants: participants, OptionalParticipants: optional,
			RoundsTaken: pgtype.Int4{Int32: int32(x.RoundsTaken), Valid: true},
			Position:    e.Position, RecordedAt: e.RecordedAt, ChannelID: x.ChannelID})
	case *negotiation.OfferSubmitted:
		conditions, err := jsonArray(x.Conditions)
		if err != nil {
			return err
		}
		return q.InsertOffer(ctx, sqlcdb.InsertOfferParams{ChannelID: x.ChannelID, AgentID: x.AgentID, DisplayName: x.DisplayName,
			Decision: string(x.Decision), Contribution: x.Contribution, Conditions: conditions, Reasoning: x.Reasoning,
			DeclineReason: x.DeclineReason, Confidence: int32(x.Confidence), Position: e.Position, RecordedAt: e.RecordedAt})
	case *negotiation.ProposalFeedback:
		concerns, err := jsonArray(x.Concerns)
		if err != nil {
			return err
		}
		return q.InsertFeedback(ctx, sqlcdb.InsertFeedbackParams{ChannelID: x.ChannelID, AgentID: x.AgentID,
			ProposalVersion: int32(x.ProposalVersion), Round: int32(x.Round), FeedbackType: string(x.FeedbackType),
			Reasoning: x.Reasoning, AdjustmentRequest: x.AdjustmentRequest, Concerns: concerns, Actor: e.Metadata.Actor,
			Position: e.Position, RecordedAt: e.RecordedAt})
	}
	return nil
}

// rebuildChannels folds the four tables, one statement each
// (queries/channels.sql RebuildChannels, ...).
func rebuildChannels(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	if err := q.RebuildChannels(ctx, head); err != nil {
		return fmt.Errorf("rebuild channels: %w", err)
	}
	if err := q.RebuildChannelProposals(ctx, head); err != nil {
		return fmt.Errorf("rebuild channel proposals: %w", err)
	}
	if err := q.RebuildChannelOffers(ctx, head); err != nil {
		return fmt.Errorf("rebuild channel offers: %w", err)
	}
	if err := q.RebuildChannelFeedback(ctx, head); err != nil {
		return fmt.Errorf("rebuild channel feedback: %w", err)
	}
	return nil
}

// jsonArray encodes a list as a JSON array ([] for none, never null).
func jsonArray(xs []string) (json.RawMessage, error) {
	if xs == nil {
		xs = []string{}
	}
	return json.Marshal(xs)
}

// columnValue decodes a JSONB column written from an event's payload into
// its typed value: the zero value when the column is empty or null.
func columnValue[T any](raw []byte, what string) (T, error) {
	var v T
	if len(raw) == 0 || string(raw) == "null" {
		return v, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("decode %s: %w", what, err)
	}
	return v, nil
}

// columnList is columnValue for a list: an empty list, never nil.
func columnList[T any](raw []byte, what string) ([]T, error) {
	v, err := columnValue[[]T](raw, what)
	if v == nil {
		v = []T{}
	}
	return v, err
}

// ChannelView is one row of the channels read model.
type ChannelView struct {
	ChannelID       string    `json:"channel_id"`
	DemandID        string    `json:"demand_id"`
	RootDemandID    string    `json:"root_demand_id"`
	ParentChannelID string    `json:"parent_channel_id,omitempty"`
	Depth           int       `json:"depth"`
	Status          string    `json:"status" enum:"created,broadcasting,collecting,aggregating,proposal_sent,negotiating,finalized,force_finalized,failed"`
	Invited         []string  `json:"invited"`
	CurrentRound    int       `json:"current_round"`
	ProposalVersion int       `json:"proposal_version" doc:"version of the latest proposal distributed (0: none yet)"`
	Participants    []string  `json:"participants,omitempty" doc:"agents of the final proposal, once finalized"`
	Optional        []string  `json:"optional_participants,omitempty" doc:"force-finalized: the participants still negotiating at the last round (the others confirmed)"`
	RoundsTaken     int       `json:"rounds_taken,omitempty"`
	LastPosition    int64     `json:"last_position"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

// ProposalView is one proposal version of a channel.
type ProposalView struct {
	Version    int                  `json:"version"`
	Round      int                  `json:"round"`
	Type       string               `json:"type" enum:"normal,compromise"`
	Proposal   negotiation.Proposal `json:"proposal" doc:"the proposal as distributed, adjustment_summary included"`
	Cursor     int64                `json:"cursor"`
	RecordedAt time.Time            `json:"recorded_at"`
}

// OfferView is one agent's offer in a channel.
type OfferView struct {
	AgentID       string    `json:"agent_id"`
	DisplayName   string    `json:"display_name,omitempty"`
	Decision      string    `json:"decision" enum:"participate,decline,conditional,no_answer"`
	Contribution  string    `json:"contribution"`
	Conditions    []string  `json:"conditions" doc:"what a conditional offer asks for; empty for the others"`
	Reasoning     string    `json:"reasoning,omitempty"`
	DeclineReason string    `json:"decline_reason,omitempty"`
	Confidence    int       `json:"confidence,omitempty"`
	Cursor        int64     `json:"cursor"`
	RecordedAt    time.Time `json:"recorded_at"`
}

// FeedbackView is one agent's feedback on one proposal version.
type FeedbackView struct {
	AgentID           string    `json:"agent_id"`
	ProposalVersion   int       `json:"proposal_version"`
	Round             int       `json:"round"`
	FeedbackType      string    `json:"feedback_type" enum:"accept,negotiate,withdraw,reject,no_answer"`
	Reasoning         string    `json:"reasoning"`
	AdjustmentRequest string    `json:"adjustment_request,omitempty"`
	Concerns          []string  `json:"concerns"`
	Actor             string    `json:"actor" doc:"agent:<id>, or system for a feedback that timed out (counted as accept)"`
	Cursor            int64     `json:"cursor"`
	RecordedAt        time.Time `json:"recorded_at"`
}

// GetChannel returns one channel's row, or ErrNotFound.
func GetChannel(ctx context.Context, db DB, channelID string) (ChannelView, error) {
	c, err := sqlcdb.New(db).GetChannel(ctx, channelID)
	if errors.Is(err, pgx.ErrNoRows) {
		return ChannelView{}, fmt.Errorf("channel %q: %w", channelID, ErrNotFound)
	}
	if err != nil {
		return ChannelView{}, fmt.Errorf("channel %q: %w", channelID, err)
	}
	v := ChannelView{ChannelID: c.ChannelID, DemandID: c.DemandID, RootDemandID: c.RootDemandID,
		ParentChannelID: c.ParentChannelID.String, Depth: int(c.Depth), Status: c.Status,
		CurrentRound: int(c.CurrentRound), ProposalVersion: int(c.ProposalVersion), RoundsTaken: int(c.RoundsTaken.Int32),
		LastPosition: c.LastPosition, CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	if v.Invited, err = columnList[string](c.Invited, "invited"); err != nil {
		return v, fmt.Errorf("channel %q: %w", channelID, err)
	}
	if v.Participants, err = columnList[string](c.Participants, "participants"); err != nil {
		return v, fmt.Errorf("channel %q: %w", channelID, err)
	}
	if v.Optional, err = columnList[string](c.OptionalParticipants, "optional participants"); err != nil {
		return v, fmt.Errorf("channel %q: %w", channelID, err)
	}
	return v, nil
}

// ChannelProposals returns every proposal version of a channel, oldest first.
func ChannelProposals(ctx context.Context, db DB, channelID string) ([]ProposalView, error) {
	rows, err := sqlcdb.New(db).ListProposals(ctx, channelID)
	if err != nil {
		return nil, fmt.Errorf("proposals of %q: %w", channelID, err)
	}
	out := make([]ProposalView, len(rows))
	for i, r := range rows {
		p, err := columnValue[negotiation.Proposal](r.Proposal, "proposal")
		if err != nil {
			return nil, fmt.Errorf("proposals of %q: %w", channelID, err)
		}
		out[i] = ProposalView{Version: int(r.Version), Round: int(r.Round), Type: r.Type, Proposal: p,
			Cursor: r.Position, RecordedAt: r.RecordedAt}
	}
	return out, nil
}

// ChannelOffers returns a channel's offers in arrival order.
func ChannelOffers(ctx context.Context, db DB, channelID string) ([]OfferView, error) {
	rows, err := sqlcdb.New(db).ListOffers(ctx, channelID)
	if err != nil {
		return nil, fmt.Errorf("offers of %q: %w", channelID, err)
	}
	out := make([]OfferView, len(rows))
	for i, r := range rows {
		conditions, err := columnList[string](r.Conditions, "conditions")
		if err != nil {
			return nil, fmt.Errorf("offers of %q: %w", channelID, err)
		}
		out[i] = OfferView{AgentID: r.AgentID, DisplayName: r.DisplayName, Decision: r.Decision, Contribution: r.Contribution,
			Conditions: conditions, Reasoning: r.Reasoning, DeclineReason: r.DeclineReason, Confidence: int(r.Confidence),
			Cursor: r.Position, RecordedAt: r.RecordedAt}
	}
	return out, nil
}

// ChannelFeedback returns a channel's feedback in arrival order, for one
// proposal version or (version 0) all of them.
func ChannelFeedback(ctx context.Context, db DB, channelID string, version int) ([]FeedbackView, error) {
	rows, err := sqlcdb.New(db).ListFeedback(ctx, sqlcdb.ListFeedbackParams{ChannelID: channelID, ProposalVersion: int32(version)})
	if err != nil {
		return nil, fmt.Errorf("feedback of %q: %w", channelID, err)
	}
	out := make([]FeedbackView, len(rows))
	for i, r := range rows {
		concerns, err := columnList[string](r.Concerns, "concerns")
		if err != nil {
			return nil, fmt.Errorf("feedback of %q: %w", channelID, err)
		}
		out[i] = FeedbackView{AgentID: r.AgentID, ProposalVersion: int(r.ProposalVersion), Round: int(r.Round),
			FeedbackType: r.FeedbackType, Reasoning: r.Reasoning, AdjustmentRequest: r.AdjustmentRequest,
			Concerns: concerns, Actor: r.Actor, Cursor: r.Position, RecordedAt: r.RecordedAt}
	}
	return out, nil
}
