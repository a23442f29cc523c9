package agents

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/towow/towow/domain"
	"github.com/towow/towow/internal/sqlcdb"
)

// Presence of external agents: an agent's first contact (a request its own
// token authenticates) writes towow.agent.online on its stream, and a
// periodic check writes towow.agent.offline for an online agent silent for
// Config.OfflineAfter. The contacts themselves are too frequent for the
// log: each is an upsert of agent_contacts (queries/agent_contacts.sql), at
// most one write per agent per contactThrottle. Both events go through the
// one unit of work, whose decision folds the agent's stream under its lock,
// so two processes never both write one (the second sees the agent already
// online, or already offline). A contact racing the check at the very end
// of the window may see the agent taken offline; its next request brings it
// online again.

// DefaultOfflineAfter is how long an online external agent may stay silent
// before it is taken offline (TOWOW_AGENT_OFFLINE_AFTER).
const DefaultOfflineAfter = 5 * time.Minute

// contactThrottle is the least time between two writes of one agent's
// contact: 10 s, or a quarter of a shorter window.
func (c *Config) contactThrottle() time.Duration { return min(10*time.Second, c.OfflineAfter/4) }

// presenceEvery is how often the check for silent agents runs: every 30 s,
// or every quarter of a shorter window (at least every second).
func (c *Config) presenceEvery() time.Duration {
	return max(time.Second, min(30*time.Second, c.OfflineAfter/4))
}

// presenceArgs is the periodic check for silent agents; River's leader
// inserts it every presenceEvery.
type presenceArgs struct{}

func (presenceArgs) Kind() string { return "towow.agent_presence" }

// presenceJob is the periodic job of the check.
func (e *Engine) presenceJob() *river.PeriodicJob {
	every := e.cfg.presenceEvery()
	return river.NewPeriodicJob(river.PeriodicInterval(every), func() (river.JobArgs, *river.InsertOpts) {
		return presenceArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: every}}
	}, &river.PeriodicJobOpts{ID: presenceArgs{}.Kind(), RunOnStart: true})
}

// AgentContact records a contact from agent a (as the directory last saw
// it) now: the contact's time, and, when a is an external agent not online,
// its towow.agent.online. It returns the position of that event (0 when
// none was written).
func (e *Engine) AgentContact(ctx context.Context, a domain.AgentState) (int64, error) {
	now := e.cfg.Now()
	online := len(a.Contact(now)) == 0
	// The contact row is written at most once per contactThrottle; this
	// process skips even the statement while its last write is fresher.
	if last, ok := e.contacts.Load(a.ID); !online || !ok || now.Sub(last.(time.Time)) >= e.cfg.contactThrottle() {
		err := sqlcdb.New(e.pool).TouchAgentContact(ctx, sqlcdb.TouchAgentContactParams{AgentID: a.ID, At: now,
			StaleBefore: now.Add(-e.cfg.contactThrottle())})
		if err != nil {
			return 0, fmt.Errorf("agent contact: %w", err)
		}
		e.contacts.Store(a.ID, now)
	}
	if online {
		return 0, nil
	}
	_, pos, err := e.DecideAgent(ctx, "agent online", a.ID, domain.AgentActor(a.ID),
		func(s *domain.AgentState) ([]domain.Payload, error) { return s.Contact(now), nil })
	return pos, err
}

// MarkSilentAgentsOffline is the periodic check: every online agent whose
// last contact is Config.OfflineAfter old or older gets its
// towow.agent.offline. It returns how many it took offline.
func (e *Engine) MarkSilentAgentsOffline(ctx context.Context) (int, error) {
	online, err := e.dir.online(ctx)
	if err != nil || len(online) == 0 {
		return 0, err
	}
	now, window := e.cfg.Now(), e.cfg.OfflineAfter
	silent, err := sqlcdb.New(e.pool).SilentAgents(ctx, sqlcdb.SilentAgentsParams{AgentIds: online, Since: now.Add(-window)})
	if err != nil {
		return 0, fmt.Errorf("silent agents: %w", err)
	}
	n := 0
	for _, s := range silent {
		var last time.Time
		if s.LastContactAt != nil {
			last = *s.LastContactAt
		}
		_, pos, err := e.DecideAgent(ctx, "agent offline", s.AgentID, domain.ActorSystem,
			func(a *domain.AgentState) ([]domain.Payload, error) { return a.Silence(last, now, window), nil })
		if err != nil {
			return n, err
		}
		if pos > 0 {
			n++
		}
	}
	return n, nil
}

// presence is the periodic check's step.
func (e *Engine) presence(ctx context.Context, _ *river.Job[presenceArgs]) error {
	n, err := e.MarkSilentAgentsOffline(ctx)
	if n > 0 {
		e.log.InfoContext(ctx, "silent agents taken offline", "agents", n, "after", e.cfg.OfflineAfter)
	}
	return err
}
