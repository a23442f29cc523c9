package commands

import (
	"time"

	"github.com/towow/towow/agents"
	"github.com/towow/towow/eventstore"
)

// Service runs the commands. It is safe for concurrent use.
type Service struct {
	engine *agents.Engine
	store  *eventstore.Store
	dir    *agents.Directory
	now    func() time.Time
}

// New returns the command service writing through engine. store and dir
// are the ones the engine was built on; now is the clock (nil: time.Now).
func New(engine *agents.Engine, store *eventstore.Store, dir *agents.Directory, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{engine: engine, store: store, dir: dir, now: now}
}
