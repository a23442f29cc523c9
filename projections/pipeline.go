package projections

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// pipeline is a write-only DB that queues statements in a pgx.Batch and
// sends them in one round trip per flush. Rebuild hands it to Apply: its
// Exec reports success at once (an empty command tag), and a failing
// statement fails the flush, which rolls the rebuild back.
type pipeline struct {
	tx    pgx.Tx
	batch pgx.Batch
}

// errPipelineRead is returned to a projector that reads during a rebuild.
var errPipelineRead = errors.New("projections: a projector read during a rebuild (Apply must only write)")

func (p *pipeline) Exec(_ context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	p.batch.Queue(sql, args...)
	return pgconn.CommandTag{}, nil
}

func (p *pipeline) Query(context.Context, string, ...any) (pgx.Rows, error) {
	return nil, errPipelineRead
}

func (p *pipeline) QueryRow(context.Context, string, ...any) pgx.Row { return errRow{} }

type errRow struct{}

func (errRow) Scan(...any) error { return errPipelineRead }

// flush sends the queued statements and reports the first failure.
func (p *pipeline) flush(ctx context.Context) error {
	if p.batch.Len() == 0 {
		return nil
	}
	err := p.tx.SendBatch(ctx, &p.batch).Close()
	p.batch = pgx.Batch{}
	return err
}
