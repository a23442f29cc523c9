package projections

import (
	"context"
	"fmt"
	"time"

	"github.com/towow/towow/internal/sqlcdb"
)

// Usage is what a user used since a time: how much, and when the first
// counted use was (a limit's window frees up from then on).
type Usage struct {
	Used   int64
	Oldest time.Time
}

// UserDemandsSince counts the root demands a user submitted since a time
// (forks and clarifications included), from the demands read model.
func (q *Queries) UserDemandsSince(ctx context.Context, userID string, since time.Time) (Usage, error) {
	r, err := sqlcdb.New(q.db).UserDemandsSince(ctx, sqlcdb.UserDemandsSinceParams{UserID: userID, Since: since})
	if err != nil {
		return Usage{}, fmt.Errorf("demands of %s: %w", userID, err)
	}
	return Usage{Used: r.Used, Oldest: r.Oldest}, nil
}

// UserTokensSince sums the LLM tokens a user's negotiation trees spent
// since a time, from the LLM calls read model.
func (q *Queries) UserTokensSince(ctx context.Context, userID string, since time.Time) (Usage, error) {
	r, err := sqlcdb.New(q.db).UserTokensSince(ctx, sqlcdb.UserTokensSinceParams{UserID: userID, Since: since})
	if err != nil {
		return Usage{}, fmt.Errorf("tokens of %s: %w", userID, err)
	}
	return Usage{Used: r.Used, Oldest: r.Oldest}, nil
}
