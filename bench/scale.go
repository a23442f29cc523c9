package bench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/sqlcdb"
	"github.com/towow/towow/projections"
)

// ScaleOptions configures Scale.
type ScaleOptions struct {
	// Sizes are the log sizes, in events, to measure at, ascending.
	Sizes []int64
	// Templates is how many negotiation trees the engine runs first
	// (default 12); Forks of them are forked (default 2). The log is
	// grown by copying these trees (negotiations with their
	// sub-negotiations and draft workflows, and forks) under new ids.
	Templates, Forks int
	// Repeat is how many times each query is timed at each size (default
	// 20): each time on another tree, spread over the log.
	Repeat int
	// CatchUp is how many events (default 20,000), copied at each size
	// once the read models are at the head, the live read models are timed
	// catching up with.
	CatchUp int64
	// Base is the API's URL and Token an admin token for it.
	Base, Token string
}

// ScalePoint is what Scale measured at one size of the log.
type ScalePoint struct {
	// Events and Trees are the log the figures were taken on (the
	// catch-up's trees included).
	Events, Trees int64
	// Load is how long copying trees into the log took to reach this
	// size from the size before.
	Load time.Duration
	// Each query's median and 95th percentile over Repeat runs: the
	// audit query of one tree (GET /api/v1/events?demand_id=, every
	// event), GET /api/v1/demands/{id}, one tree's stream resumed from an
	// old cursor (GET /api/v1/events/negotiations/{id}/stream with
	// Last-Event-ID, read to its end), and read-your-writes (POST
	// /api/v1/demand/submit, then GET /api/v1/demands/{id}?min_cursor=
	// its cursor).
	Audit, Demand, Resume, ReadYourWrites [2]time.Duration
	// CatchUp is how long the live read models, at the head of the log,
	// took to apply CatchUpEvents events copied into it at once.
	CatchUp       time.Duration
	CatchUpEvents int64
	// Rebuild is a full rebuild of every read model, right after the load
	// (it also brings the live read models, which fall behind a load, to
	// the head); RebuildByModel each model's, by name.
	Rebuild        time.Duration
	RebuildByModel map[string]time.Duration
	// EventBytes is the events table with its indexes and TOAST;
	// ReadModelBytes the read models' tables.
	EventBytes, ReadModelBytes int64
}

// template is one tree of the log to copy: its events, and the id tokens
// (the hex part of "d-3f9a1c2b4d5e") a copy renames.
type template struct {
	events []eventstore.RecordedEvent
	tokens []string
}

// Scale runs Templates negotiations (and Forks forks of them) with a's
// engine, then grows the log to each of Sizes by copying their trees
// under new ids, and at each size times a full rebuild of the read models,
// their catch-up with CatchUp more events, the per-tree queries over HTTP,
// and the disk the log takes. a runs no read models of its own (see
// ScaleReadModels): Scale runs them while it measures them.
func Scale(ctx context.Context, a *app.App, pool *pgxpool.Pool, opts ScaleOptions, progress io.Writer) ([]ScalePoint, error) {
	if opts.Templates <= 0 {
		opts.Templates = 12
	}
	if opts.Forks < 0 || opts.Forks > opts.Templates {
		opts.Forks = 0
	}
	if opts.Repeat <= 0 {
		opts.Repeat = 20
	}
	if opts.CatchUp <= 0 {
		opts.CatchUp = 20_000
	}
	tpls, err := scaleTemplates(ctx, a, pool, opts, progress)
	if err != nil {
		return nil, err
	}
	q := sqlcdb.New(pool)
	head, err := a.Store.HeadPosition(ctx)
	if err != nil {
		return nil, err
	}
	events, err := a.Store.CountBetween(ctx, 0, head)
	if err != nil {
		return nil, err
	}
	roots := []string{} // root demand ids of every tree in the log, in load order
	for _, t := range tpls {
		roots = append(roots, "d-"+t.tokens[0])
	}
	var points []ScalePoint
	next := 0 // the template the next copy is of
	// grow copies trees until the log holds at least size events, eight
	// trees (about 2,000 events) a statement.
	grow := func(size int64) error {
		for events < size {
			var rows []sqlcdb.Event
			for range 8 {
				var root string
				if rows, root, err = copyTree(rows, tpls[next%len(tpls)]); err != nil {
					return err
				}
				next++
				roots = append(roots, root)
			}
			if err := load(ctx, q, rows); err != nil {
				return err
			}
			events += int64(len(rows))
			if progress != nil && len(roots)%(8*2500) == 0 {
				fmt.Fprintf(progress, "  %d events, %d trees\n", events, len(roots))
			}
		}
		return nil
	}
	// live times, with the read models following the log, their catch-up
	// with opts.CatchUp more events and the per-tree queries.
	live := func(p *ScalePoint) error {
		stop := followLive(a)
		defer stop()
		before := events
		if err := grow(events + opts.CatchUp); err != nil {
			return err
		}
		var err error
		if p.CatchUp, err = waitCaughtUp(ctx, a); err != nil {
			return err
		}
		p.CatchUpEvents = events - before
		if progress != nil {
			fmt.Fprintf(progress, "  rebuilt in %s; %d more events caught up with in %s\n", p.Rebuild.Round(time.Millisecond),
				p.CatchUpEvents, p.CatchUp.Round(time.Millisecond))
		}
		return timeQueries(ctx, a, opts, roots, p)
	}
	for _, size := range opts.Sizes {
		p := ScalePoint{}
		t0 := time.Now()
		if err := grow(size); err != nil {
			return nil, err
		}
		if err := q.AnalyzeEvents(ctx); err != nil { // as autovacuum would, soon after such a load
			return nil, fmt.Errorf("analyze events: %w", err)
		}
		p.Load = time.Since(t0)
		if progress != nil {
			fmt.Fprintf(progress, "%d events (%d trees): loaded in %s; rebuilding the read models\n", events, len(roots),
				p.Load.Round(time.Millisecond))
		}
		if p.Rebuild, p.RebuildByModel, err = rebuildAll(ctx, a); err != nil {
			return nil, err
		}
		if err := live(&p); err != nil {
			return nil, err
		}
		if p.EventBytes, p.ReadModelBytes, err = diskBytes(ctx, pool); err != nil {
			return nil, err
		}
		p.Events, p.Trees = events, int64(len(roots)) // the log measured on, the catch-up's trees included
		// read-your-writes added trees of their own
		if events, err = countAll(ctx, a.Store); err != nil {
			return nil, err
		}
		points = append(points, p)
	}
	return points, nil
}

// ScaleReadModels gives a, built without Config.ReadModels, the read
// models Scale runs while it measures (a.Runner, served by a.Queries).
// Call it before building a's API.
func ScaleReadModels(a *app.App, pool *pgxpool.Pool) {
	a.Runner = projections.NewRunner(pool, a.Store, a.Notifier, nil)
	a.Queries = projections.NewQueries(a.Runner, pool)
}

// followLive runs a's read models live (a.Runner) until the returned stop
// is called. Scale has them follow the log only while it measures them and
// the queries: a load of millions of events, as a restore from an archive
// would be, is followed by a rebuild instead.
func followLive(a *app.App) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, m := range projections.All() {
		wg.Go(func() { a.Runner.RunForever(ctx, m) })
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// scaleTemplates runs the template negotiations and forks, and reads the
// trees back.
func scaleTemplates(ctx context.Context, a *app.App, pool *pgxpool.Pool, opts ScaleOptions, progress io.Writer) ([]template, error) {
	if progress != nil {
		fmt.Fprintf(progress, "running %d negotiations and %d forks to copy\n", opts.Templates, opts.Forks)
	}
	var roots []string
	for i := range opts.Templates {
		sub, err := a.Commands.SubmitDemand(ctx, "bench", SampleDemands[i%len(SampleDemands)])
		if err != nil {
			return nil, err
		}
		roots = append(roots, sub.DemandID)
	}
	for i, root := range slices.Clone(roots) {
		evs, err := waitEnd(ctx, a.Store, root, 2*time.Minute)
		if err != nil {
			return nil, err
		}
		if i >= opts.Forks {
			continue
		}
		// Fork at the first proposal, without its first assignee.
		for _, e := range evs {
			if e.Type != negotiation.EventProposalDistributed || e.StreamID != negotiation.ChannelStream(negotiation.ChannelIDFor(root)) {
				continue
			}
			p, err := e.Decode()
			if err != nil {
				return nil, err
			}
			prop := p.(*negotiation.ProposalDistributed).Proposal
			if len(prop.Assignments) == 0 {
				break
			}
			forkID, _, err := a.Commands.Fork(ctx, root, e.Position,
				negotiation.ForkChange{Type: negotiation.ForkRemoveAgent, AgentID: prop.Assignments[0].AgentID})
			if err != nil {
				return nil, fmt.Errorf("fork %s: %w", root, err)
			}
			if _, err := waitEnd(ctx, a.Store, forkID, 2*time.Minute); err != nil {
				return nil, err
			}
			roots = append(roots, forkID)
			break
		}
	}
	var out []template
	for _, root := range roots {
		evs, err := a.Store.ReadAll(ctx, 0, eventstore.Filter{CorrelationID: root}, eventstore.MaxReadLimit)
		if err != nil {
			return nil, err
		}
		t := template{events: evs, tokens: []string{strings.TrimPrefix(root, "d-")}}
		for _, e := range evs { // a fork names the tree it was forked from
			if e.Type != negotiation.EventNegotiationForked {
				continue
			}
			p, err := e.Decode()
			if err != nil {
				return nil, err
			}
			if f := p.(*negotiation.NegotiationForked); f.ForkedFrom != "" {
				t.tokens = append(t.tokens, strings.TrimPrefix(f.ForkedFrom, "d-"))
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// copyTree adds to rows a copy of t under new ids, and returns them with
// the copy's root demand id.
func copyTree(rows []sqlcdb.Event, t template) ([]sqlcdb.Event, string, error) {
	names := make([]string, 0, 2*len(t.tokens))
	for _, tok := range t.tokens {
		b := make([]byte, 6)
		if _, err := rand.Read(b); err != nil {
			return nil, "", err
		}
		names = append(names, tok, hex.EncodeToString(b))
	}
	rename := strings.NewReplacer(names...)
	for _, e := range t.events {
		meta, err := json.Marshal(e.Metadata)
		if err != nil {
			return nil, "", err
		}
		rows = append(rows, sqlcdb.Event{EventID: uuid.New(), StreamID: rename.Replace(e.StreamID), StreamVersion: e.StreamVersion,
			EventType: string(e.Type), Payload: json.RawMessage(rename.Replace(string(e.Payload))),
			Metadata: json.RawMessage(rename.Replace(string(meta)))})
	}
	return rows, "d-" + names[1], nil
}

// load appends rows in one statement, with positions its transaction
// takes (their own positions and times are not read).
func load(ctx context.Context, q *sqlcdb.Queries, rows []sqlcdb.Event) error {
	body, err := json.Marshal(rows)
	if err != nil {
		return err
	}
	if err := q.LoadEvents(ctx, body); err != nil {
		return fmt.Errorf("load %d events: %w", len(rows), err)
	}
	return nil
}

// waitCaughtUp waits until every read model of a's runner has caught up
// with the log's head, and returns how long that took.
func waitCaughtUp(ctx context.Context, a *app.App) (time.Duration, error) {
	t0 := time.Now()
	head, err := a.Store.HeadPosition(ctx)
	if err != nil {
		return 0, err
	}
	if err := a.Runner.WaitFor(ctx, head, projections.Names()...); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}

// rebuildAll rebuilds every read model and returns how long it took, in
// all and by model.
func rebuildAll(ctx context.Context, a *app.App) (time.Duration, map[string]time.Duration, error) {
	var took time.Duration
	by := map[string]time.Duration{}
	for _, m := range projections.All() {
		res, err := a.Runner.Rebuild(ctx, m)
		if err != nil {
			return 0, nil, err
		}
		took += res.Elapsed
		by[m.Name()] = res.Elapsed
	}
	return took, by, nil
}

// diskBytes is the size of the events table (with its indexes and TOAST)
// and of the read models' tables (every other table but River's, goose's
// and the read models' checkpoints).
func diskBytes(ctx context.Context, pool *pgxpool.Pool) (events, readModels int64, err error) {
	sizes, err := sqlcdb.New(pool).TableSizes(ctx)
	if err != nil {
		return 0, 0, fmt.Errorf("table sizes: %w", err)
	}
	for _, s := range sizes {
		switch {
		case s.Name == "events":
			events = s.Bytes
		case !strings.HasPrefix(s.Name, "river_") && s.Name != "goose_db_version" && s.Name != "projection_checkpoints":
			readModels += s.Bytes
		}
	}
	return events, readModels, nil
}

func countAll(ctx context.Context, store *eventstore.Store) (int64, error) {
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return 0, err
	}
	return store.CountBetween(ctx, 0, head)
}

// timeQueries times each per-tree query opts.Repeat times, on trees
// spread over the log (roots in load order), then read-your-writes as
// often, and waits for the negotiations those submitted to end, so that
// they weigh on no other figure.
func timeQueries(ctx context.Context, a *app.App, opts ScaleOptions, roots []string, p *ScalePoint) error {
	var audit, demand, resume, ryw []time.Duration
	for i := range opts.Repeat {
		root := roots[(i*len(roots))/opts.Repeat+len(roots)/(2*opts.Repeat)]
		t0 := time.Now()
		body, err := apiGet(ctx, opts, "/api/v1/events?demand_id="+url.QueryEscape(root)+"&limit=1000", "")
		if err != nil {
			return err
		}
		audit = append(audit, time.Since(t0))
		var page struct {
			Events []struct {
				Cursor int64 `json:"cursor"`
			} `json:"events"`
		}
		if err := json.Unmarshal(body, &page); err != nil || len(page.Events) == 0 {
			return fmt.Errorf("audit of %s: %d events (%v): %.200s", root, len(page.Events), err, body)
		}
		t0 = time.Now()
		if _, err := apiGet(ctx, opts, "/api/v1/demands/"+root, ""); err != nil {
			return err
		}
		demand = append(demand, time.Since(t0))
		// Resume from the tree's first event: everything after it, to
		// the end of the stream.
		t0 = time.Now()
		if err := readStream(ctx, opts, root, page.Events[0].Cursor); err != nil {
			return err
		}
		resume = append(resume, time.Since(t0))
	}
	var submitted []string
	for range opts.Repeat {
		t0 := time.Now()
		id, err := readYourWrite(ctx, opts)
		if err != nil {
			return err
		}
		ryw = append(ryw, time.Since(t0))
		submitted = append(submitted, id)
	}
	for _, id := range submitted {
		if _, err := waitEnd(ctx, a.Store, id, 2*time.Minute); err != nil {
			return err
		}
	}
	p.Audit, p.Demand, p.Resume, p.ReadYourWrites = quantiles(audit), quantiles(demand), quantiles(resume), quantiles(ryw)
	return nil
}

// quantiles are the median and the 95th percentile of ds.
func quantiles(ds []time.Duration) [2]time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return [2]time.Duration{s[len(s)/2], s[min(len(s)-1, len(s)*95/100)]}
}

// apiGet GETs path with the admin token and returns the body of a 200.
func apiGet(ctx context.Context, opts ScaleOptions, path, lastEventID string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, opts.Base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+opts.Token)
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %d %.200s", path, resp.StatusCode, body)
	}
	return body, nil
}

// readStream reads one ended tree's stream, resumed after cursor, to its
// terminal message.
func readStream(ctx context.Context, opts ScaleOptions, root string, cursor int64) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, opts.Base+"/api/v1/events/negotiations/"+root+"/stream", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+opts.Token)
	req.Header.Set("Last-Event-ID", fmt.Sprint(cursor))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("stream of %s: %d", root, resp.StatusCode)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	events := 0
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.HasPrefix(line, []byte("event: towow.stream.end")) {
			if events == 0 {
				return fmt.Errorf("stream of %s resumed after %d: no event before its end", root, cursor)
			}
			return nil
		}
		if bytes.HasPrefix(line, []byte("data:")) {
			events++
		}
	}
	return fmt.Errorf("stream of %s ended without its terminal message (%v)", root, sc.Err())
}

// readYourWrite submits a demand and reads it back from the read model
// at the submission's cursor; it returns the demand's id.
func readYourWrite(ctx context.Context, opts ScaleOptions) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, opts.Base+"/api/v1/demand/submit",
		strings.NewReader(`{"raw_input":"需要一位摄影师，周六在上海拍活动"}`))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Bearer "+opts.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var sub struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&sub); err != nil || resp.StatusCode != http.StatusAccepted {
		return "", fmt.Errorf("submit: %d (%v)", resp.StatusCode, err)
	}
	_, err = apiGet(ctx, opts, fmt.Sprintf("/api/v1/demands/%s?min_cursor=%d", sub.DemandID, sub.Cursor), "")
	return sub.DemandID, err
}

// WriteScale prints Scale's figures, one column per size.
func WriteScale(w io.Writer, points []ScalePoint) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(name string, f func(p ScalePoint) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, p := range points {
			fmt.Fprintf(tw, "%s\t", f(p))
		}
		fmt.Fprintln(tw)
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1f", float64(d.Microseconds())/1000) }
	q := func(d [2]time.Duration) string { return ms(d[0]) + " / " + ms(d[1]) }
	row("events", func(p ScalePoint) string { return fmt.Sprint(p.Events) })
	row("negotiation trees", func(p ScalePoint) string { return fmt.Sprint(p.Trees) })
	row("audit of one tree, ms p50 / p95", func(p ScalePoint) string { return q(p.Audit) })
	row("GET /demands/{id}, ms", func(p ScalePoint) string { return q(p.Demand) })
	row("stream resumed from an old cursor, ms", func(p ScalePoint) string { return q(p.Resume) })
	row("read-your-writes (submit, read), ms", func(p ScalePoint) string { return q(p.ReadYourWrites) })
	row("load (copying trees), s", func(p ScalePoint) string { return fmt.Sprintf("%.1f", p.Load.Seconds()) })
	row("read models caught up with, events", func(p ScalePoint) string { return fmt.Sprint(p.CatchUpEvents) })
	row("  in, s", func(p ScalePoint) string { return fmt.Sprintf("%.1f", p.CatchUp.Seconds()) })
	row("  events/s", func(p ScalePoint) string { return fmt.Sprintf("%.0f", float64(p.CatchUpEvents)/p.CatchUp.Seconds()) })
	row("full rebuild, s", func(p ScalePoint) string { return fmt.Sprintf("%.1f", p.Rebuild.Seconds()) })
	row("full rebuild, events/s", func(p ScalePoint) string { return fmt.Sprintf("%.0f", float64(p.Events)/p.Rebuild.Seconds()) })
	for _, m := range projections.All() {
		row("  rebuild of "+m.Name()+", s", func(p ScalePoint) string { return fmt.Sprintf("%.1f", p.RebuildByModel[m.Name()].Seconds()) })
	}
	row("events table, MiB", func(p ScalePoint) string { return fmt.Sprintf("%.0f", float64(p.EventBytes)/(1<<20)) })
	row("read models, MiB", func(p ScalePoint) string { return fmt.Sprintf("%.0f", float64(p.ReadModelBytes)/(1<<20)) })
	row("disk per tree (events + read models), KiB", func(p ScalePoint) string {
		return fmt.Sprintf("%.1f", float64(p.EventBytes+p.ReadModelBytes)/float64(p.Trees)/1024)
	})
	return tw.Flush()
}
