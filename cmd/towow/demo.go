package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/personal"
)

// printer prints a negotiation tree's events and notices its end.
type printer struct {
	w        io.Writer
	store    *eventstore.Store // reveals the personal texts printed
	demandID string
	start    time.Time
	done     *negotiation.NegotiationCompleted
	failure  *negotiation.NegotiationFailed // the root demand failed before a channel
	rejected *negotiation.DemandRejected    // the root demand was rejected
}

func (p *printer) print(ctx context.Context, e eventstore.RecordedEvent) error {
	e, err := p.store.RevealEvent(ctx, e)
	if err != nil {
		return err
	}
	if p.start.IsZero() {
		p.start = e.RecordedAt
	}
	fmt.Fprintln(p.w, timelineLine(e, p.start))
	pl, err := e.Decode()
	if err != nil {
		return nil //nolint:nilerr // a type this build does not know: its line says so
	}
	switch ev := pl.(type) {
	case *negotiation.NegotiationCompleted:
		if ev.ChannelID == negotiation.ChannelIDFor(p.demandID) {
			p.done = ev
		}
	case *negotiation.NegotiationFailed:
		if ev.ChannelID == "" && ev.DemandID == p.demandID {
			p.failure = ev
		}
	case *negotiation.DemandRejected:
		if ev.DemandID == p.demandID {
			p.rejected = ev
		}
	}
	return nil
}

func (p *printer) finished() bool { return p.done != nil || p.failure != nil }

// finish prints the result and, as the last line, the terminal state.
func (p *printer) finish() {
	timelineResult(p.w, p.done, p.failure, p.rejected)
	switch {
	case p.done != nil:
		fmt.Fprintf(p.w, "status: %s\n", p.done.Status)
	case p.failure != nil:
		fmt.Fprintf(p.w, "status: failed (%s)\n", p.failure.Reason)
	}
}

var errFinished = errors.New("negotiation finished")

func cmdDemo(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf(`%w: towow demo "<demand text>" (e.g. towow demo "我想在北京办一场AI主题聚会，需要场地和嘉宾")`, errUsage)
	}
	a, err := app.New(ctx, cfg.app(stderr, true))
	if err != nil {
		return err
	}
	defer a.Close()
	store := a.Store
	head, err := store.HeadPosition(ctx)
	if err != nil {
		return err
	}
	sub, err := a.Commands.SubmitDemand(ctx, "demo", args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demand %s, channel %s, LLM %s\n\n", sub.DemandID, sub.ChannelID, cfg.LLM)
	p := &printer{w: stdout, store: store, demandID: sub.DemandID}
	err = store.Subscribe(ctx, eventstore.SubscribeOptions{After: head, Notifier: a.Notifier,
		Filter: eventstore.Filter{CorrelationID: sub.DemandID}},
		func(ctx context.Context, batch []eventstore.RecordedEvent) error {
			for _, e := range batch {
				if err := p.print(ctx, e); err != nil {
					return err
				}
			}
			if p.finished() {
				return errFinished
			}
			return nil
		})
	if !errors.Is(err, errFinished) {
		return err
	}
	p.finish()
	return nil
}

func cmdReplay(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("%w: towow replay <demand_id>", errUsage)
	}
	pool, closeDB, err := openMigrated(ctx, cfg, cfg.quietLogger(stderr))
	if err != nil {
		return err
	}
	defer closeDB()
	store := eventstore.New(pool, eventstore.Options{Personal: personal.New(pool, nil)})
	p := &printer{w: stdout, store: store, demandID: args[0]}
	var after int64
	n := 0
	for {
		page, err := store.ReadAll(ctx, after, eventstore.Filter{CorrelationID: args[0]}, eventstore.MaxReadLimit)
		if err != nil {
			return err
		}
		for _, e := range page {
			if err := p.print(ctx, e); err != nil {
				return err
			}
			n++
		}
		if len(page) < eventstore.MaxReadLimit {
			break
		}
		after = page[len(page)-1].Position
	}
	if n == 0 {
		return fmt.Errorf("no negotiation with demand id %q", args[0])
	}
	p.finish()
	if !p.finished() {
		fmt.Fprintln(stdout, "status: in progress")
	}
	return nil
}
