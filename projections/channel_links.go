package projections

import (
	"context"
	"fmt"

	"github.com/towow/towow/internal/sqlcdb"
)

// ChildChannels returns the channels a channel spawned for its gaps (its
// sub-negotiations), in the order they were opened.
func ChildChannels(ctx context.Context, db DB, channelID string) ([]string, error) {
	ids, err := sqlcdb.New(db).ChildChannels(ctx, text(channelID))
	if err != nil {
		return nil, fmt.Errorf("children of %q: %w", channelID, err)
	}
	return ids, nil
}
