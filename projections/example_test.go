package projections_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/projections"
)

// examplePool is a migrated database for the runnable examples.
var examplePool *pgxpool.Pool

func TestMain(m *testing.M) { dbtest.Main(m, &examplePool) }

// Fold the log into the read models and read them: a runner catches every
// read model up with the log (servers run it live with RunForever), and
// Queries answers from the rows, waiting for a cursor when asked to
// (read-your-writes). A rebuild folds a model again from the first event;
// its fingerprint proves the rows identical.
func ExampleQueries() {
	ctx := context.Background()
	store := eventstore.New(examplePool, eventstore.Options{})
	ev, err := eventstore.NewEvent(uuid.Must(uuid.NewV7()), &negotiation.DemandSubmitted{
		DemandID: "d-example", UserID: "u1", RawInput: "我想在北京办一场AI主题聚会，需要场地和嘉宾",
	}, event.Metadata{CorrelationID: "d-example", Actor: event.UserActor("u1")})
	if err != nil {
		panic(err)
	}
	res, err := store.Append(ctx, negotiation.DemandStream("d-example"), eventstore.NoStream, ev)
	if err != nil {
		panic(err)
	}

	runner := projections.NewRunner(examplePool, store, nil, nil)
	for _, m := range projections.All() {
		if _, err := runner.CatchUp(ctx, m); err != nil {
			panic(err)
		}
	}
	q := projections.NewQueries(runner, examplePool)
	if err := q.WaitFor(ctx, res.LastPosition, "demands"); err != nil {
		panic(err)
	}
	d, err := q.GetDemand(ctx, "d-example")
	fmt.Println(d.DemandID, d.Status, d.UserID, err)

	before, _ := q.Checksum(ctx, "demands")
	if _, err := q.Rebuild(ctx, "demands"); err != nil {
		panic(err)
	}
	after, _ := q.Checksum(ctx, "demands")
	fmt.Println("rows:", after.Rows, "identical after rebuild:", before == after)
	// Output:
	// d-example processing u1 <nil>
	// rows: 1 identical after rebuild: true
}
