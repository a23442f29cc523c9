package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
)

// Demands keeps one row per demand (root and sub-demands): who asked what,
// the understanding, the channel, and how it ended.
type Demands struct{ modelMethods[Demands] }

// Model declares the demands read model.
func (Demands) Model() Model { return demandsModel }

var demandsModel = Model{
	Name: "demands",
	Types: []event.EventType{negotiation.EventDemandSubmitted, negotiation.EventDemandUnderstood, negotiation.EventDemandAccepted,
		negotiation.EventNegotiationCompleted, negotiation.EventNegotiationFailed, negotiation.EventNegotiationForked},
	Apply:    applyDemand,
	Reset:    (*sqlcdb.Queries).DeleteDemands,
	Rebuild:  rebuildDemands,
	Checksum: fingerprint((*sqlcdb.Queries).ChecksumDemands),
}

func applyDemand(ctx context.Context, q *sqlcdb.Queries, e eventstore.RecordedEvent, p event.Payload) error {
	switch x := p.(type) {
	case *negotiation.DemandSubmitted:
		root := x.RootDemandID
		if root == "" {
			root = x.DemandID
		}
		return q.InsertDemand(ctx, sqlcdb.InsertDemandParams{
			DemandID: x.DemandID, UserID: x.UserID, RawInput: x.RawInput, RootDemandID: root,
			ParentDemandID: text(x.ParentDemandID), ParentChannelID: text(x.ParentChannelID),
			Depth: int32(x.RecursionDepth), Position: e.Position, RecordedAt: e.RecordedAt,
		})
	case *negotiation.DemandUnderstood:
		return q.SetDemandUnderstanding(ctx, sqlcdb.SetDemandUnderstandingParams{
			Understanding: e.Payload, Position: e.Position, RecordedAt: e.RecordedAt, DemandID: x.DemandID})
	case *negotiation.DemandAccepted:
		return q.SetDemandChannel(ctx, sqlcdb.SetDemandChannelParams{
			ChannelID: text(x.ChannelID), Position: e.Position, RecordedAt: e.RecordedAt, DemandID: x.DemandID})
	case *negotiation.NegotiationCompleted:
		status := negotiation.DemandStatusCompleted
		if x.Status == negotiation.ChannelStatusFailed {
			status = negotiation.DemandStatusFailed
		}
		return q.CompleteDemand(ctx, sqlcdb.CompleteDemandParams{
			Status: string(status), Outcome: text(string(x.Status)), Payload: e.Payload,
			RoundsTaken: pgtype.Int4{Int32: int32(x.RoundsTaken), Valid: x.RoundsTaken > 0},
			Position:    e.Position, RecordedAt: e.RecordedAt, DemandID: x.DemandID})
	case *negotiation.NegotiationForked:
		return q.SetDemandForkedFrom(ctx, sqlcdb.SetDemandForkedFromParams{ForkedFrom: x.ForkedFrom, Position: e.Position,
			RecordedAt: e.RecordedAt, DemandID: x.DemandID})
	case *negotiation.NegotiationFailed:
		return q.FailDemand(ctx, sqlcdb.FailDemandParams{
			Reason: text(string(x.Reason)), ErrorCode: text(x.ErrorCode),
			Position: e.Position, RecordedAt: e.RecordedAt, DemandID: x.DemandID})
	}
	return nil
}

// rebuildDemands folds the table in one statement (queries/demands.sql
// RebuildDemands).
func rebuildDemands(q *sqlcdb.Queries, ctx context.Context, head int64) error {
	if err := q.RebuildDemands(ctx, head); err != nil {
		return fmt.Errorf("rebuild demands: %w", err)
	}
	return nil
}

func text(s string) pgtype.Text { return pgtype.Text{String: s, Valid: s != ""} }

// DemandView is one row of the demands read model.
type DemandView struct {
	DemandID        string                        `json:"demand_id"`
	UserID          string                        `json:"user_id"`
	RawInput        string                        `json:"raw_input"`
	RootDemandID    string                        `json:"root_demand_id"`
	ParentDemandID  string                        `json:"parent_demand_id,omitempty"`
	ParentChannelID string                        `json:"parent_channel_id,omitempty"`
	Depth           int                           `json:"depth"`
	Status          string                        `json:"status" enum:"processing,completed,failed"`
	Understanding   *negotiation.DemandUnderstood `json:"understanding,omitempty" doc:"the demand as the coordinator understood it (surface demand, capability tags, needs); absent before"`
	ChannelID       string                        `json:"channel_id,omitempty"`
	Outcome         string                        `json:"outcome,omitempty" doc:"finalized, force_finalized or failed (the channel's end), or the failure reason"`
	FinalProposal   *negotiation.Proposal         `json:"final_proposal,omitempty" doc:"the plan the negotiation ended with; absent before its end and after a failure without one"`
	RoundsTaken     int                           `json:"rounds_taken,omitempty"`
	ErrorCode       string                        `json:"error_code,omitempty"`
	Cursor          int64                         `json:"cursor" doc:"position of the demand's submission: the list's page cursor"`
	LastPosition    int64                         `json:"last_position" doc:"position of the last event folded into this row"`
	CreatedAt       time.Time                     `json:"created_at"`
	UpdatedAt       time.Time                     `json:"updated_at"`

	Participants []string `json:"participants" doc:"the agents the plan assigns, once each: its merged plan (what sub-negotiations added included), else its final proposal; empty before an agreement"`
	ForkedFrom   string   `json:"forked_from,omitempty" doc:"the demand this one was forked from (what if); absent for a demand that is no fork"`
}

// GetDemand returns one demand's row, or ErrNotFound.
func GetDemand(ctx context.Context, db DB, demandID string) (DemandView, error) {
	d, err := sqlcdb.New(db).GetDemand(ctx, demandID)
	if errors.Is(err, pgx.ErrNoRows) {
		return DemandView{}, fmt.Errorf("demand %q: %w", demandID, ErrNotFound)
	}
	if err != nil {
		return DemandView{}, fmt.Errorf("demand %q: %w", demandID, err)
	}
	return demandView(d)
}

// SubDemands returns the sub-demands a demand's channel spawned, oldest
// first.
func SubDemands(ctx context.Context, db DB, demandID string) ([]DemandView, error) {
	rows, err := sqlcdb.New(db).ListSubDemands(ctx, text(demandID))
	if err != nil {
		return nil, fmt.Errorf("sub-demands of %q: %w", demandID, err)
	}
	return demandViews(rows)
}

// DemandFilter selects demands for ListDemands.
type DemandFilter struct {
	Status, UserID string
	Since, Until   time.Time // created_at in [Since, Until)
	IncludeSub     bool      // sub-demands too (default: root demands only)
	Before         int64     // page cursor: demands submitted before this position (0: newest)
	Limit          int       // default 50, at most 500
}

// ListDemands returns demands newest first.
func ListDemands(ctx context.Context, db DB, f DemandFilter) ([]DemandView, error) {
	if f.Limit <= 0 || f.Limit > 500 {
		f.Limit = 50
	}
	p := sqlcdb.ListDemandsParams{BeforePosition: f.Before, Status: text(f.Status), UserID: text(f.UserID),
		IncludeSub: f.IncludeSub, MaxCount: int32(f.Limit)}
	if !f.Since.IsZero() {
		p.Since = &f.Since
	}
	if !f.Until.IsZero() {
		p.Until = &f.Until
	}
	rows, err := sqlcdb.New(db).ListDemands(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("list demands: %w", err)
	}
	return demandViews(rows)
}

func demandViews(rows []sqlcdb.Demand) ([]DemandView, error) {
	out := make([]DemandView, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = demandView(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func demandView(d sqlcdb.Demand) (DemandView, error) {
	u, err := columnValue[*negotiation.DemandUnderstood](d.Understanding, "understanding")
	if err != nil {
		return DemandView{}, fmt.Errorf("demand %q: %w", d.DemandID, err)
	}
	final, err := columnValue[*negotiation.Proposal](d.FinalProposal, "final proposal")
	if err != nil {
		return DemandView{}, fmt.Errorf("demand %q: %w", d.DemandID, err)
	}
	v := DemandView{
		DemandID: d.DemandID, UserID: d.UserID, RawInput: d.RawInput, RootDemandID: d.RootDemandID,
		ParentDemandID: d.ParentDemandID.String, ParentChannelID: d.ParentChannelID.String, Depth: int(d.Depth),
		Status: d.Status, Understanding: u, ChannelID: d.ChannelID.String, Outcome: d.Outcome.String,
		FinalProposal: final, RoundsTaken: int(d.RoundsTaken.Int32), ErrorCode: d.ErrorCode.String,
		Cursor: d.SubmittedPosition, LastPosition: d.LastPosition, CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
		Participants: d.Participants, ForkedFrom: d.ForkedFrom.String,
	}
	if v.Participants == nil {
		v.Participants = []string{}
	}
	return v, nil
}
