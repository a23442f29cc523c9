package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/internal/sqlcdb"
)

// Noticing dead workers. River rescues a job left "running" by a process
// that died only once it has been running for RescueAfter, and its rescuer
// looks every 30 s, so after a kill -9 a step could wait minutes. Instead
// every working process holds, for its lifetime, a session advisory lock
// keyed by its River client id (PostgreSQL releases it when the process's
// connection ends, whatever ended it), and every process sweeps every few
// seconds: a running job whose last worker holds no lock is made available
// again at once (queries/jobs.sql). A step is safe to run twice (it reloads
// and decides again; the expected-version check refuses a stale append),
// so a sweep that is wrong — the lock's connection lost while the process
// lives — costs a repeated step, never a lost or doubled event.

// sweepEvery is how often a process looks for the steps of dead ones, and
// sweepMinAge how long a job must have been running before it is looked
// at (the fetching process takes its lock before it starts working).
const (
	sweepEvery  = 3 * time.Second
	sweepMinAge = 2 * time.Second
)

// newClientID names this process's River client: "towow-" marks the
// processes that hold a liveness lock (the sweep touches no other's jobs).
func newClientID() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, host)
	if len(host) > 40 {
		host = host[:40]
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return fmt.Sprintf("towow-%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// liveness holds this process's lock and sweeps for dead processes' jobs.
type liveness struct {
	r    *Runner
	id   string
	conn *pgx.Conn // holds the lock; nil while lost
}

// hold takes the lock on a connection of its own (taken from the pool for
// good), replacing a lost one.
func (l *liveness) hold(ctx context.Context) error {
	if l.conn != nil {
		if err := l.conn.Ping(ctx); err == nil {
			return nil
		}
		_ = l.conn.Close(context.WithoutCancel(ctx))
		l.conn = nil
	}
	pc, err := l.r.cfg.Pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("liveness lock: %w", err)
	}
	conn := pc.Hijack()
	if err := sqlcdb.New(conn).HoldWorkerLock(ctx, l.id); err != nil {
		_ = conn.Close(context.WithoutCancel(ctx))
		return fmt.Errorf("liveness lock: %w", err)
	}
	l.conn = conn
	return nil
}

// sweep makes the running jobs of dead processes available again.
func (l *liveness) sweep(ctx context.Context) error {
	rows, err := sqlcdb.New(l.r.cfg.Pool).RescueOrphanedJobs(ctx, sweepMinAge.Seconds())
	if err != nil {
		return fmt.Errorf("sweep for dead workers' steps: %w", err)
	}
	for _, r := range rows {
		l.r.log.InfoContext(ctx, "step of a stopped process made available again", "job_id", r.ID, "kind", r.Kind, "attempt", r.Attempt)
	}
	return nil
}

// run keeps the lock and sweeps until ctx ends, then releases the lock.
func (l *liveness) run(ctx context.Context) {
	defer func() {
		if l.conn != nil {
			_ = l.conn.Close(context.WithoutCancel(ctx))
		}
	}()
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for {
		// Sweep only while holding our own lock: without it, our own
		// running steps look dead to every process, ours included.
		err := l.hold(ctx)
		if err == nil {
			err = l.sweep(ctx)
		}
		if err != nil && ctx.Err() == nil {
			l.r.throttledLog.WarnContext(ctx, "dead-worker sweep failed; retrying", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
