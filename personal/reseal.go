package personal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/uow"
)

// Resealed is what SealExisting did.
type Resealed struct {
	// Events is how many events had texts sealed now; Texts how many
	// texts; Skipped how many events hold personal texts whose subject
	// could not be told (left as they were).
	Events, Texts, Skipped int
}

// SealExisting seals, in one transaction, the personal texts of the
// events written before they were sealed (a deployment upgraded from a
// version that stored them as written), each with the key of the subject
// it would have been sealed for then; texts already sealed stay as they
// are, so running it again changes nothing. Events keep their ids,
// positions and order; only payload and metadata change (the one update
// towow_events_immutable lets through, in this transaction only). Run it
// with every server stopped, then rebuild the read models, which copied
// the texts as they were.
func (k *Keys) SealExisting(ctx context.Context, pool *pgxpool.Pool) (Resealed, error) {
	var out Resealed
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		out = Resealed{}
		q := sqlcdb.New(tx)
		if err := q.AllowResealing(ctx); err != nil {
			return err
		}
		var after int64
		for {
			rows, err := q.EventsAfter(ctx, sqlcdb.EventsAfterParams{AfterPosition: after, MaxCount: 1000})
			if err != nil {
				return err
			}
			for _, r := range rows {
				after = r.GlobalPosition
				if err := k.reseal(ctx, q, r, &out); err != nil {
					return fmt.Errorf("event %s at position %d: %w", r.EventID, r.GlobalPosition, err)
				}
			}
			if len(rows) < 1000 {
				return nil
			}
		}
	})
	if err != nil {
		return Resealed{}, fmt.Errorf("seal existing events: %w", err)
	}
	return out, nil
}

// reseal seals the plaintexts of one stored event.
func (k *Keys) reseal(ctx context.Context, q *sqlcdb.Queries, r sqlcdb.EventsAfterRow, out *Resealed) error {
	var md event.Metadata
	if err := json.Unmarshal(r.Metadata, &md); err != nil {
		return err
	}
	p, err := event.DecodePayload(event.EventType(r.EventType), md.SchemaVersion, r.Payload)
	if errors.Is(err, event.ErrUnknownEventType) {
		return nil // a type this build does not know holds nothing it could seal
	}
	if err != nil {
		return err
	}
	hasAnswer := md.LLMCall != nil && md.LLMCall.Answer != "" && !IsSealed(md.LLMCall.Answer)
	if !event.HasPersonal(p) && !hasAnswer {
		return nil
	}
	subject := uow.SubjectOf(r.StreamID, md.CorrelationID, p)
	texts := 0
	seal := func(text string) (string, error) {
		if IsSealed(text) || text == Erased {
			return text, nil
		}
		texts++
		return k.Seal(ctx, subject, text)
	}
	if err := event.SealPersonal(p, seal); errors.Is(err, ErrNoSubject) {
		out.Skipped++
		return nil
	} else if err != nil {
		return err
	}
	if hasAnswer {
		call := *md.LLMCall
		if err := event.SealPersonal(&call, seal); errors.Is(err, ErrNoSubject) {
			out.Skipped++
			return nil
		} else if err != nil {
			return err
		}
		md.LLMCall = &call
	}
	if texts == 0 {
		return nil
	}
	_, v, payload, err := event.EncodePayload(p)
	if err != nil {
		return err
	}
	md.SchemaVersion = v
	meta, err := json.Marshal(md)
	if err != nil {
		return err
	}
	if err := q.ResealEvent(ctx, sqlcdb.ResealEventParams{Payload: payload, Metadata: meta, EventID: r.EventID}); err != nil {
		return err
	}
	out.Events++
	out.Texts += texts
	return nil
}
