package eventstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/internal/sqlcdb"
)

// DefaultReadLimit is the page size used when a read passes limit <= 0;
// MaxReadLimit caps any page.
const (
	DefaultReadLimit = 1000
	MaxReadLimit     = 10000
)

// Filter narrows ReadAll and subscriptions. Zero fields do not filter.
type Filter struct {
	StreamID      string
	Types         []event.EventType // any of these types
	TypePrefix    string            // e.g. "towow.offer." (matched literally)
	CorrelationID string            // metadata correlation_id: a whole negotiation tree
	Actor         string            // metadata actor
	Principal     string            // metadata principal (events recorded without one: "system")
	UntilPosition int64             // positions <= UntilPosition only
	Since, Until  time.Time         // recorded_at in [Since, Until)
}

func clampLimit(limit int) int32 {
	switch {
	case limit <= 0:
		return DefaultReadLimit
	case limit > MaxReadLimit:
		return MaxReadLimit
	}
	return int32(limit)
}

// ReadStream returns up to limit events of a stream with version >=
// fromVersion, oldest first.
func (s *Store) ReadStream(ctx context.Context, streamID string, fromVersion int64, limit int) ([]RecordedEvent, error) {
	rows, err := s.q.ReadStreamForward(ctx, sqlcdb.ReadStreamForwardParams{StreamID: streamID, FromVersion: fromVersion, MaxCount: clampLimit(limit)})
	if err != nil {
		return nil, fmt.Errorf("read stream %q: %w", streamID, err)
	}
	return toRecorded(rows)
}

// ReadStreamBackward returns the latest n events of a stream, newest first.
func (s *Store) ReadStreamBackward(ctx context.Context, streamID string, n int) ([]RecordedEvent, error) {
	rows, err := s.q.ReadStreamBackward(ctx, sqlcdb.ReadStreamBackwardParams{StreamID: streamID, MaxCount: clampLimit(n)})
	if err != nil {
		return nil, fmt.Errorf("read stream %q backward: %w", streamID, err)
	}
	return toRecorded(rows)
}

// StreamVersion returns the version of a stream's last event, 0 if it has none.
func (s *Store) StreamVersion(ctx context.Context, streamID string) (int64, error) {
	v, err := s.q.StreamVersion(ctx, streamID)
	if err != nil {
		return 0, fmt.Errorf("stream %q version: %w", streamID, err)
	}
	return v, nil
}

// HeadPosition returns the highest settled global position (0 if none):
// the last event a reader can reach now. An event committed by a
// transaction that took its id after one still in flight is not settled
// until that one ends (see the package doc).
func (s *Store) HeadPosition(ctx context.Context) (int64, error) {
	p, err := s.q.HeadPosition(ctx)
	if err != nil {
		return 0, fmt.Errorf("head position: %w", err)
	}
	return p, nil
}

// ReadAll returns up to limit settled events of all streams with position
// > after that match f, in position order. Feeding the last returned
// Position back as after pages through the log without gaps (see the
// package doc).
func (s *Store) ReadAll(ctx context.Context, after int64, f Filter, limit int) ([]RecordedEvent, error) {
	p, err := s.ReadPage(ctx, after, f, limit)
	return p.Events, err
}

// maxDipRetries bounds how often ReadPage looks again after a dip of the
// settled bound (one look almost always suffices); after that it returns
// the shorter page, still correct for its own bound (Page.Through).
const maxDipRetries = 10

// Page is one read of the log ([Store.ReadPage]).
type Page struct {
	// Events are the events read, in position order.
	Events []RecordedEvent
	// Through is how far the read is complete: every event matching the
	// filter at a position in (after, Through] is in Events. A full page
	// ends at its last event; a shorter one reaches up to the settled
	// bound its query ran under. A reader that must have seen everything
	// up to some position reads on from Through until Through reaches it:
	// a later query may run under a lower bound than an earlier one (see
	// the package doc), so no other query's bound vouches for this read.
	Through int64
	// below and latest are the query's settled bound and the highest
	// position committed in its snapshot: while latest >= below, committed
	// events wait above the bound for an older transaction (Subscribe).
	below, latest int64
}

// ReadPage is ReadAll, also telling how far the read is complete.
func (s *Store) ReadPage(ctx context.Context, after int64, f Filter, limit int) (Page, error) {
	p := sqlcdb.ReadAllParams{
		AfterPosition: after,
		EventTypes:    make([]string, len(f.Types)),
		MaxCount:      clampLimit(limit),
	}
	for i, t := range f.Types {
		p.EventTypes[i] = string(t)
	}
	if f.UntilPosition > 0 {
		p.UntilPosition = pgtype.Int8{Int64: f.UntilPosition, Valid: true}
	}
	p.StreamID = optText(f.StreamID)
	if f.TypePrefix != "" {
		p.TypePattern = optText(likeEscape(f.TypePrefix) + "%")
	}
	p.CorrelationID = optText(f.CorrelationID)
	p.Actor = optText(f.Actor)
	p.Principal = optText(f.Principal)
	if !f.Since.IsZero() {
		p.Since = &f.Since
	}
	if !f.Until.IsZero() {
		p.Until = &f.Until
	}
	var rows []sqlcdb.ReadAllRow
	var below, latest int64
	var err error
	for attempt := 0; ; attempt++ {
		if rows, err = s.readAll(ctx, f, p); err != nil {
			return Page{}, fmt.Errorf("read all after %d: %w", after, err)
		}
		if len(rows) == 0 {
			return Page{Through: after}, nil // no bound: nothing is known beyond after
		}
		below, latest = rows[0].SettledBelow, rows[0].Latest
		// A query's bound dips below an earlier one's when a transaction
		// of another database (or one that appends nothing) ends between
		// its snapshot and its look at the running backends. The next
		// query no longer sees that transaction: look again, so that this
		// store's reads never go back behind one another (a page that came
		// back short under a dip could hide events an earlier read, or
		// WaitSettled, already vouched for).
		highest := s.highest.Load()
		if below >= highest || int32(len(rows)) == p.MaxCount || s.inTx || attempt == maxDipRetries {
			if !s.inTx {
				s.sawBound(below)
			}
			break
		}
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return Page{}, fmt.Errorf("read all after %d: %w", after, ctx.Err())
			case <-time.After(time.Millisecond):
			}
		}
	}
	page := Page{Through: after, below: below, latest: latest}
	if rows[0].GlobalPosition == 0 {
		rows = rows[:0] // the bound's row: no event matched
	}
	page.Events = make([]RecordedEvent, len(rows))
	for i, r := range rows {
		if page.Events[i], err = recorded(sqlcdb.Event{GlobalPosition: r.GlobalPosition, EventID: r.EventID, StreamID: r.StreamID,
			StreamVersion: r.StreamVersion, EventType: r.EventType, Payload: r.Payload, Metadata: r.Metadata, RecordedAt: r.RecordedAt}); err != nil {
			return Page{}, err
		}
	}
	if int32(len(page.Events)) == p.MaxCount {
		page.Through = page.Events[len(page.Events)-1].Position
	} else {
		page.Through = max(after, below-1)
	}
	return page, nil
}

// readAll runs ReadAll's query: planned for its values at every call when
// a filter is set (customPlans), prepared when none is (the followers of
// the whole log), whose one generic plan serves every cursor.
func (s *Store) readAll(ctx context.Context, f Filter, p sqlcdb.ReadAllParams) ([]sqlcdb.ReadAllRow, error) {
	if f.none() {
		return s.q.ReadAll(ctx, p)
	}
	return s.qc.ReadAll(ctx, p)
}

// none reports whether f is the zero Filter, which lets every event
// through. It looks at every field by reflection, so that a field added
// later counts as a filter without being listed here.
func (f Filter) none() bool { return reflect.ValueOf(f).IsZero() }

// CountBetween returns how many events lie at positions in (after, until]
// (positions are sparse: their difference is not a count).
func (s *Store) CountBetween(ctx context.Context, after, until int64) (int64, error) {
	if until <= after {
		return 0, nil
	}
	n, err := s.q.CountEventsBetween(ctx, sqlcdb.CountEventsBetweenParams{AfterPosition: after, UntilPosition: until})
	if err != nil {
		return 0, fmt.Errorf("count events in (%d, %d]: %w", after, until, err)
	}
	return n, nil
}

// LatestPosition returns the highest committed position, settled or not
// (0 if none): it moves exactly when something is appended, so it tells
// whether a write happened. Readers stop at HeadPosition.
func (s *Store) LatestPosition(ctx context.Context) (int64, error) {
	p, err := s.q.LatestPosition(ctx)
	if err != nil {
		return 0, fmt.Errorf("latest position: %w", err)
	}
	return p, nil
}

// Unsettled returns how many committed events readers cannot reach yet,
// because a write transaction of this database with an older id is still
// open (see the package doc). It stays near 0 unless one is held open.
func (s *Store) Unsettled(ctx context.Context) (int64, error) {
	n, err := s.q.CountUnsettled(ctx)
	if err != nil {
		return 0, fmt.Errorf("count unsettled events: %w", err)
	}
	return n, nil
}

// frontier is where readers stand: every position below settledBelow is
// final; latest is the highest committed position (above settledBelow
// while an older transaction is still in flight).
func (s *Store) frontier(ctx context.Context) (settledBelow, latest int64, err error) {
	f, err := s.q.Frontier(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("read frontier: %w", err)
	}
	if !s.inTx {
		s.sawBound(f.SettledBelow)
	}
	return f.SettledBelow, f.Latest, nil
}

// sawBound raises highest to below: a bound a query outside any caller's
// transaction ran under (inside one, the caller's own uncommitted appends
// are not in its snapshot's list of transactions in flight, so that bound
// vouches for nothing).
func (s *Store) sawBound(below int64) {
	for {
		h := s.highest.Load()
		if below <= h || s.highest.CompareAndSwap(h, below) {
			return
		}
	}
}

func optText(s string) pgtype.Text { return pgtype.Text{String: s, Valid: s != ""} }

// likeEscape escapes LIKE's wildcards so a prefix matches literally.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// Recorded converts rows of the events table, as a sqlc query over it reads
// them (every column), into RecordedEvents: for a read model that reads the
// log through its own queries.
func Recorded(rows []sqlcdb.Event) ([]RecordedEvent, error) { return toRecorded(rows) }

func toRecorded(rows []sqlcdb.Event) ([]RecordedEvent, error) {
	out := make([]RecordedEvent, len(rows))
	for i, r := range rows {
		var err error
		if out[i], err = recorded(r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func recorded(r sqlcdb.Event) (RecordedEvent, error) {
	e := RecordedEvent{
		Position:      r.GlobalPosition,
		EventID:       r.EventID,
		StreamID:      r.StreamID,
		StreamVersion: r.StreamVersion,
		Type:          event.EventType(r.EventType),
		Payload:       r.Payload,
		RecordedAt:    r.RecordedAt,
	}
	if err := json.Unmarshal(r.Metadata, &e.Metadata); err != nil {
		return e, fmt.Errorf("event %s at position %d: metadata: %w", r.EventID, r.GlobalPosition, err)
	}
	return e, nil
}

// DecodeStream returns up to limit payloads of a stream from fromVersion
// on, decoded, oldest first: what a fold needs, read without the events'
// metadata.
func (s *Store) DecodeStream(ctx context.Context, streamID string, fromVersion int64, limit int) ([]event.Payload, error) {
	rows, err := s.q.ReadStreamPayloads(ctx, sqlcdb.ReadStreamPayloadsParams{StreamID: streamID, FromVersion: fromVersion, MaxCount: clampLimit(limit)})
	if err != nil {
		return nil, fmt.Errorf("read stream %q: %w", streamID, err)
	}
	out := make([]event.Payload, len(rows))
	for i, r := range rows {
		data, err := s.revealJSON(ctx, r.Payload)
		if err != nil {
			return nil, err
		}
		if out[i], err = event.DecodePayload(event.EventType(r.EventType), int(r.SchemaVersion), data); err != nil {
			return nil, fmt.Errorf("event %s at position %d: %w", r.EventID, r.GlobalPosition, err)
		}
	}
	return out, nil
}

// Decode decodes e's payload with its personal texts revealed.
func (s *Store) Decode(ctx context.Context, e RecordedEvent) (event.Payload, error) {
	e, err := s.RevealEvent(ctx, e)
	if err != nil {
		return nil, err
	}
	return e.Decode()
}

// RevealEvent returns e with the personal texts of its payload revealed
// (for a reader that shows them: a command-line timeline).
func (s *Store) RevealEvent(ctx context.Context, e RecordedEvent) (RecordedEvent, error) {
	data, err := s.revealJSON(ctx, e.Payload)
	if err != nil {
		return e, err
	}
	e.Payload = data
	return e, nil
}

// Reveal returns text with its sealed texts revealed (text as it is
// without a Revealer).
func (s *Store) Reveal(ctx context.Context, text string) (string, error) {
	if s.opts.Personal == nil {
		return text, nil
	}
	out, err := s.opts.Personal.Reveal(ctx, text, false)
	if err != nil {
		return "", fmt.Errorf("reveal: %w", err)
	}
	return out, nil
}

// revealJSON returns a JSON document with its sealed texts revealed.
func (s *Store) revealJSON(ctx context.Context, data []byte) ([]byte, error) {
	if s.opts.Personal == nil || !bytes.Contains(data, sealedMark) {
		return data, nil
	}
	out, err := s.opts.Personal.Reveal(ctx, string(data), true)
	if err != nil {
		return nil, fmt.Errorf("reveal: %w", err)
	}
	return []byte(out), nil
}

// sealedMark opens every sealed text; a payload without it has none.
var sealedMark = []byte("{{towow:p1:")

// Fold reads every event of a stream, oldest first, decodes each and hands
// it to apply (an aggregate's Apply); it returns the stream's version (0:
// no such stream).
func (s *Store) Fold(ctx context.Context, streamID string, apply func(event.Payload)) (int64, error) {
	var version int64
	for {
		ps, err := s.DecodeStream(ctx, streamID, version+1, MaxReadLimit)
		if err != nil {
			return 0, err
		}
		for _, p := range ps {
			apply(p)
		}
		version += int64(len(ps))
		if len(ps) < MaxReadLimit {
			return version, nil
		}
	}
}

// PageReader reads the log a page at a time ([Store.ReadAll]).
type PageReader interface {
	ReadAll(ctx context.Context, after int64, f Filter, limit int) ([]RecordedEvent, error)
}

// ReadEvery returns every event matching f after cursor after, in log
// order, reading r a page of MaxReadLimit at a time (for sets known to be
// small, such as one negotiation tree).
func ReadEvery(ctx context.Context, r PageReader, after int64, f Filter) ([]RecordedEvent, error) {
	var out []RecordedEvent
	for {
		evs, err := r.ReadAll(ctx, after, f, MaxReadLimit)
		if err != nil {
			return nil, err
		}
		out = append(out, evs...)
		if len(evs) < MaxReadLimit {
			return out, nil
		}
		after = evs[len(evs)-1].Position
	}
}
