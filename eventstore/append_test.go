package eventstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/eventstore"
)

func TestAppendExpectedVersion(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if _, err := s.Append(ctx, "channel-1", eventstore.NoStream, evN(2, "a")...); err != nil {
		t.Fatalf("seed: %v", err)
	}
	tests := []struct {
		name       string
		stream     string
		expected   eventstore.ExpectedVersion
		wantErr    bool
		wantActual int64
		wantFirst  int64
	}{
		{"no stream on a new stream", "channel-2", eventstore.NoStream, false, 0, 1},
		{"no stream on an existing stream", "channel-1", eventstore.NoStream, true, 2, 0},
		{"exact, right", "channel-1", 2, false, 0, 3},
		{"exact, stale", "channel-1", 2, true, 4, 0},
		{"exact, ahead", "channel-1", 9, true, 4, 0},
		{"exact on a missing stream", "channel-3", 1, true, 0, 0},
		{"any on an existing stream", "channel-1", eventstore.AnyVersion, false, 0, 5},
		{"any on a new stream", "channel-4", eventstore.AnyVersion, false, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := latest(t, s)
			res, err := s.Append(ctx, tc.stream, tc.expected, evN(2, tc.name)...)
			if tc.wantErr {
				var conflict *eventstore.VersionConflictError
				if !errors.As(err, &conflict) || !errors.Is(err, eventstore.ErrVersionConflict) {
					t.Fatalf("err = %v, want a version conflict", err)
				}
				if conflict.Actual != tc.wantActual || conflict.StreamID != tc.stream || conflict.Expected != tc.expected {
					t.Fatalf("conflict = %+v, want actual %d", conflict, tc.wantActual)
				}
				if h := latest(t, s); h != before {
					t.Fatalf("a conflicting append wrote: head %d -> %d", before, h)
				}
				return
			}
			if err != nil {
				t.Fatalf("append: %v", err)
			}
			if res.FirstVersion != tc.wantFirst || res.LastVersion != tc.wantFirst+1 || res.Duplicate {
				t.Fatalf("result = %+v, want versions %d..%d", res, tc.wantFirst, tc.wantFirst+1)
			}
			if res.FirstPosition <= before || res.LastPosition <= res.FirstPosition {
				t.Fatalf("positions %d..%d not after head %d", res.FirstPosition, res.LastPosition, before)
			}
		})
	}
}

func TestAppendStoresEveryField(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	id := uuid.New()
	md := event.Metadata{CorrelationID: "demand-1", CausationID: "cmd-9", Actor: "coordinator"}
	res, err := s.Append(ctx, "demand-1", eventstore.NoStream,
		eventstore.EventData{ID: id, Type: "towow.demand.submitted", Payload: json.RawMessage(`{"raw_input":"办一场AI聚会","n":1}`), Metadata: md})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadStream(ctx, "demand-1", 1, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("read = %v, %v", got, err)
	}
	e := got[0]
	md.SchemaVersion = 1
	if e.EventID != id || e.StreamID != "demand-1" || e.StreamVersion != 1 || e.Position != res.FirstPosition ||
		e.Type != "towow.demand.submitted" || e.Metadata != md || e.RecordedAt.IsZero() {
		t.Fatalf("stored %+v", e)
	}
	var p map[string]any
	if err := json.Unmarshal(e.Payload, &p); err != nil || p["raw_input"] != "办一场AI聚会" {
		t.Fatalf("payload %s: %v", e.Payload, err)
	}
}

func TestAppendIsAtomic(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	// A later failure in the same transaction takes the earlier append with it.
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := s.AppendTx(ctx, tx, "s", eventstore.NoStream, evN(3, "x")...); err != nil {
			return err
		}
		_, err := s.AppendTx(ctx, tx, "s", eventstore.NoStream, evN(1, "y")...)
		return err
	})
	if !errors.Is(err, eventstore.ErrVersionConflict) {
		t.Fatalf("err = %v", err)
	}
	if v, _ := s.StreamVersion(ctx, "s"); v != 0 {
		t.Fatalf("rolled-back append left version %d", v)
	}
	res, err := s.Append(ctx, "s", eventstore.NoStream, evN(100, "batch")...)
	if err != nil || res.FirstVersion != 1 || res.LastVersion != 100 {
		t.Fatalf("batch: %+v %v", res, err)
	}
	got, _ := s.ReadStream(ctx, "s", 1, 1000)
	for i, e := range got {
		if e.StreamVersion != int64(i+1) || (i > 0 && e.Position <= got[i-1].Position) {
			t.Fatalf("event %d: version %d position %d", i, e.StreamVersion, e.Position)
		}
	}
}

func TestAppendIdempotentEventID(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	batch := evN(3, "idem")
	for i := range batch {
		batch[i].ID = uuid.New()
	}
	first, err := s.Append(ctx, "st", eventstore.NoStream, batch...)
	if err != nil {
		t.Fatal(err)
	}
	h := latest(t, s)
	// Same events again, even with the stale expected version: a no-op that says so.
	again, err := s.Append(ctx, "st", eventstore.NoStream, batch...)
	if err != nil {
		t.Fatalf("re-append: %v", err)
	}
	if !again.Duplicate || again.FirstPosition != first.FirstPosition || again.LastVersion != first.LastVersion {
		t.Fatalf("re-append = %+v, first = %+v", again, first)
	}
	if latest(t, s) != h {
		t.Fatal("re-append wrote")
	}
	// A single already-stored event is a duplicate too.
	one, err := s.Append(ctx, "st", 3, batch[1])
	if err != nil || !one.Duplicate || one.FirstVersion != 2 {
		t.Fatalf("single re-append = %+v, %v", one, err)
	}

	fresh := ev("towow.test.happened", `{}`)
	fresh.ID = uuid.New()
	other := batch[0]
	other.Type = "towow.test.other"
	cases := map[string]struct {
		stream string
		events []eventstore.EventData
	}{
		"partly stored":        {"st", []eventstore.EventData{batch[2], fresh}},
		"stored in a stream":   {"elsewhere", batch[:1]},
		"stored as other type": {"st", []eventstore.EventData{other}},
		"out of order":         {"st", []eventstore.EventData{batch[1], batch[0]}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := s.Append(ctx, tc.stream, eventstore.AnyVersion, tc.events...)
			if !errors.Is(err, eventstore.ErrEventIDReused) {
				t.Fatalf("err = %v, want ErrEventIDReused", err)
			}
			if latest(t, s) != h {
				t.Fatal("wrote despite the error")
			}
		})
	}
}

func TestAppendRejectsBadInput(t *testing.T) {
	pool := newPoolOnly(t)
	s := eventstore.New(pool, eventstore.Options{MaxPayloadBytes: 64})
	ctx := context.Background()
	dup := uuid.New()
	big := `{"x":"` + strings.Repeat("a", 60) + `"}`
	tests := []struct {
		name   string
		stream string
		events []eventstore.EventData
		want   string
	}{
		{"no prefix", "s", []eventstore.EventData{ev("demand.submitted", `{}`)}, "must be"},
		{"prefix only", "s", []eventstore.EventData{ev("towow.", `{}`)}, "must be"},
		{"upper case", "s", []eventstore.EventData{ev("towow.Demand", `{}`)}, "must be"},
		{"payload array", "s", []eventstore.EventData{ev("towow.a", `[1]`)}, "not a JSON object"},
		{"payload null", "s", []eventstore.EventData{ev("towow.a", `null`)}, "not a JSON object"},
		{"payload string", "s", []eventstore.EventData{ev("towow.a", `"x"`)}, "not a JSON object"},
		{"payload broken", "s", []eventstore.EventData{ev("towow.a", `{"a":`)}, "not a JSON object"},
		{"payload empty", "s", []eventstore.EventData{ev("towow.a", ``)}, "not a JSON object"},
		{"payload NUL", "s", []eventstore.EventData{ev("towow.a", `{"a":"\u0000"}`)}, "not a JSON object"},
		{"payload too large", "s", []eventstore.EventData{ev("towow.a", big)}, "over the 64-byte limit"},
		{"empty stream", "", []eventstore.EventData{ev("towow.a", `{}`)}, "stream id is empty"},
		{"long stream", strings.Repeat("s", 201), []eventstore.EventData{ev("towow.a", `{}`)}, "over the 200-byte limit"},
		{"no events", "s", nil, "no events"},
		{"repeated id", "s", []eventstore.EventData{{ID: dup, Type: "towow.a", Payload: json.RawMessage(`{}`)}, {ID: dup, Type: "towow.a", Payload: json.RawMessage(`{}`)}}, "repeats event #0"},
		{"second event bad", "s", []eventstore.EventData{ev("towow.a", `{}`), ev("towow.b", `7`)}, "invalid event #1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Append(ctx, tc.stream, eventstore.AnyVersion, tc.events...)
			var inv *eventstore.InvalidEventError
			if !errors.As(err, &inv) || !errors.Is(err, eventstore.ErrInvalidEvent) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want invalid event mentioning %q", err, tc.want)
			}
		})
	}
	if h := latest(t, s); h != 0 {
		t.Fatalf("bad input wrote: head %d", h)
	}
	// An escaped backslash followed by "u0000" is ordinary text, not NUL.
	if _, err := s.Append(ctx, "s", eventstore.NoStream, ev("towow.a", `{"a":"\\u0000"}`)); err != nil {
		t.Fatalf("escaped backslash rejected: %v", err)
	}
	// A bad expected version is refused too.
	if _, err := s.Append(ctx, "s", eventstore.ExpectedVersion(-5), ev("towow.a", `{}`)); !errors.Is(err, eventstore.ErrInvalidEvent) {
		t.Fatalf("expected version -5: %v", err)
	}
}

func TestEventsAreImmutable(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	if _, err := s.Append(ctx, "s", eventstore.NoStream, evN(1, "imm")...); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"UPDATE events SET payload = '{}'",
		"DELETE FROM events",
		"TRUNCATE events",
		"INSERT INTO events (event_id, stream_id, stream_version, event_type, payload) VALUES (gen_random_uuid(), 'x', 1, 'nope', '{}')",
		"INSERT INTO events (event_id, stream_id, stream_version, event_type, payload) VALUES (gen_random_uuid(), 'x', 1, 'towow.a', '[]')",
	} {
		if _, err := pool.Exec(ctx, sql); err == nil {
			t.Errorf("%s: succeeded", sql)
		}
	}
	if got := readAll(t, s, eventstore.Filter{}); len(got) != 1 {
		t.Fatalf("log has %d events", len(got))
	}
}

// TestConcurrentAppendsOneWinner races N appends with the same expected
// version: exactly one may win, every other gets a conflict naming the
// winner's version.
func TestConcurrentAppendsOneWinner(t *testing.T) {
	s, _ := newStore(t)
	ctx := context.Background()
	if _, err := s.Append(ctx, "race", eventstore.NoStream, evN(1, "seed")...); err != nil {
		t.Fatal(err)
	}
	const n = 16
	// Three races; each winner moves the stream by 2 events, so the next
	// race expects version round+2.
	for round := int64(1); round <= 5; round += 2 {
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = s.Append(ctx, "race", eventstore.ExpectedVersion(round), evN(2, "racer")...)
			}()
		}
		close(start)
		wg.Wait()
		wins := 0
		for _, err := range errs {
			var c *eventstore.VersionConflictError
			switch {
			case err == nil:
				wins++
			case errors.As(err, &c):
				if c.Actual != round+2 {
					t.Fatalf("conflict actual %d, want %d", c.Actual, round+2)
				}
			default:
				t.Fatalf("unexpected error: %v", err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d winners", round, wins)
		}
		if v, _ := s.StreamVersion(ctx, "race"); v != round+2 {
			t.Fatalf("version %d, want %d", v, round+2)
		}
	}
}

// TestAppendOrdersAStreamByPosition: a transaction that took its id
// before another appended to a stream cannot append after that event (its
// events would be ordered before it); it gets a version conflict, writes
// nothing, and a new transaction appends.
func TestAppendOrdersAStreamByPosition(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	older := begin(t, pool)
	if _, err := older.Exec(ctx, "SELECT pg_current_xact_id()"); err != nil {
		t.Fatal(err)
	}
	first := appendCommitted(t, s, pool, "s", eventstore.NoStream, evN(1, "newer")...)
	_, err := s.AppendTx(ctx, older, "s", eventstore.AnyVersion, evN(1, "older")...)
	var conflict *eventstore.VersionConflictError
	if !errors.As(err, &conflict) || conflict.Actual != 1 {
		t.Fatalf("append from the older transaction: %v, want a version conflict at 1", err)
	}
	if err := older.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := s.Append(ctx, "s", eventstore.ExpectedVersion(1), evN(1, "again")...)
	if err != nil {
		t.Fatal(err)
	}
	if again.FirstPosition <= first.LastPosition || again.FirstVersion != 2 {
		t.Fatalf("retried append at version %d position %d, after position %d", again.FirstVersion, again.FirstPosition, first.LastPosition)
	}
	if got := readAll(t, s, eventstore.Filter{}); len(got) != 2 {
		t.Fatalf("log has %d events, want 2", len(got))
	}
}

// TestAppendPositionsPerTransaction: appends in one transaction take
// consecutive positions across streams, a rolled-back savepoint gives its
// positions back, and a raw insert takes the next one.
func TestAppendPositionsPerTransaction(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	tx := begin(t, pool)
	a, err := s.AppendTx(ctx, tx, "a", eventstore.NoStream, evN(3, "a")...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "SAVEPOINT sp"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendTx(ctx, tx, "gone", eventstore.NoStream, evN(5, "gone")...); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "ROLLBACK TO SAVEPOINT sp"); err != nil {
		t.Fatal(err)
	}
	b, err := s.AppendTx(ctx, tx, "b", eventstore.NoStream, evN(2, "b")...)
	if err != nil {
		t.Fatal(err)
	}
	var raw int64
	if err := tx.QueryRow(ctx, `INSERT INTO events (event_id, stream_id, stream_version, event_type, payload)
		VALUES (gen_random_uuid(), 'raw', 1, 'towow.test.raw', '{}') RETURNING global_position`).Scan(&raw); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if a.LastPosition != a.FirstPosition+2 || b.FirstPosition != a.LastPosition+1 || raw != b.LastPosition+1 {
		t.Fatalf("positions a %d..%d, b %d..%d, raw %d: want one run", a.FirstPosition, a.LastPosition, b.FirstPosition, b.LastPosition, raw)
	}
	if got := readAll(t, s, eventstore.Filter{}); len(got) != 6 {
		t.Fatalf("log has %d events, want 6", len(got))
	}
}

// TestLargePayloadsCompressedWithLZ4: a payload large enough to be
// compressed is stored with lz4 (cheaper to write and to read back than
// pglz) on a server that has it, with pglz on one without, and reads back
// as written either way.
func TestLargePayloadsCompressedWithLZ4(t *testing.T) {
	s, pool := newStore(t)
	ctx := context.Background()
	var lz4 bool
	if err := pool.QueryRow(ctx, `SELECT attcompression = 'l' FROM pg_attribute
		WHERE attrelid = 'events'::regclass AND attname = 'payload'`).Scan(&lz4); err != nil {
		t.Fatal(err)
	}
	var supported bool
	if err := pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_settings
		WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals))`).Scan(&supported); err != nil {
		t.Fatal(err)
	}
	want := "pglz"
	if supported {
		want = "lz4"
	}
	if lz4 != supported {
		t.Fatalf("events.payload set to lz4: %v, on a server that has lz4: %v", lz4, supported)
	}
	payload := `{"text":"` + strings.Repeat("一场AI主题聚会需要场地和嘉宾。", 400) + `"}`
	res, err := s.Append(ctx, "lz4-1", eventstore.NoStream, ev("towow.test.happened", payload))
	if err != nil {
		t.Fatal(err)
	}
	var method string
	if err := pool.QueryRow(ctx, `SELECT coalesce(pg_column_compression(payload), '') FROM events WHERE global_position = $1`,
		res.FirstPosition).Scan(&method); err != nil {
		t.Fatal(err)
	}
	if method != want {
		t.Errorf("a %d-byte payload is stored compressed with %q, want %s", len(payload), method, want)
	}
	evs, err := s.ReadStream(ctx, "lz4-1", 1, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || !strings.Contains(string(evs[0].Payload), "一场AI主题聚会需要场地和嘉宾。") {
		t.Errorf("read back %d events, payload %d bytes", len(evs), len(evs[0].Payload))
	}
}
