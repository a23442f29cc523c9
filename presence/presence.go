package presence

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/directory"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/internal/sqlcdb"
)

// DefaultOfflineAfter is how long an online external agent may stay silent
// before it is taken offline (TOWOW_AGENT_OFFLINE_AFTER).
const DefaultOfflineAfter = 5 * time.Minute

// Config tunes presence. A zero field takes its default.
type Config struct {
	// OfflineAfter is how long an online external agent may stay silent
	// before it is taken offline ([DefaultOfflineAfter]).
	OfflineAfter time.Duration
	// Now is the clock (default time.Now).
	Now    func() time.Time
	Logger *slog.Logger
}

// contactThrottle is the least time between two writes of one agent's
// contact: 10 s, or a quarter of a shorter window.
func (c *Config) contactThrottle() time.Duration { return min(10*time.Second, c.OfflineAfter/4) }

// presenceEvery is how often the check for silent agents runs: every 30 s,
// or every quarter of a shorter window (at least every second).
func (c *Config) presenceEvery() time.Duration {
	return max(time.Second, min(30*time.Second, c.OfflineAfter/4))
}

// Presence records the external agents' contacts and takes silent agents
// offline. It is safe for concurrent use.
type Presence struct {
	cfg    Config
	pool   *pgxpool.Pool
	dir    *directory.Directory
	writer *directory.Writer
	log    *slog.Logger
	// contacts is, by external agent id, when this process last wrote
	// its contact time.
	contacts sync.Map
}

// New returns presence over the agents of dir, written through w.
func New(pool *pgxpool.Pool, dir *directory.Directory, w *directory.Writer, cfg Config) *Presence {
	if cfg.OfflineAfter <= 0 {
		cfg.OfflineAfter = DefaultOfflineAfter
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Presence{cfg: cfg, pool: pool, dir: dir, writer: w, log: cfg.Logger}
}

// AgentContact records a contact from agent a (as the directory last saw
// it) now: the contact's time, and, when a is an external agent not online,
// its towow.agent.online. It returns the position of that event (0 when
// none was written).
func (e *Presence) AgentContact(ctx context.Context, a negotiation.AgentState) (int64, error) {
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
	_, pos, err := e.writer.DecideAgent(ctx, "agent online", a.ID, event.AgentActor(a.ID),
		func(s *negotiation.AgentState) ([]event.Payload, error) { return s.Contact(now), nil })
	return pos, err
}

// MarkSilentAgentsOffline is the periodic check: every online agent whose
// last contact is Config.OfflineAfter old or older gets its
// towow.agent.offline. It returns how many it took offline.
func (e *Presence) MarkSilentAgentsOffline(ctx context.Context) (int, error) {
	online, err := e.dir.Online(ctx)
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
		_, pos, err := e.writer.DecideAgent(ctx, "agent offline", s.AgentID, event.ActorSystem,
			func(a *negotiation.AgentState) ([]event.Payload, error) { return a.Silence(last, now, window), nil })
		if err != nil {
			return n, err
		}
		if pos > 0 {
			n++
		}
	}
	return n, nil
}
