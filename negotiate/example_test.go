package negotiate_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// examplePool is a migrated database for the runnable examples.
var examplePool *pgxpool.Pool

func TestMain(m *testing.M) { dbtest.Main(m, &examplePool) }

var errDone = errors.New("negotiation ended")

// Submit a demand with the builtin brain and follow its negotiation to the
// end: the App runs the write side's River workers, the command writes the
// submission, and the log tells when the root channel completed.
func ExampleCommands_SubmitDemand() {
	ctx := context.Background()
	a, err := app.New(ctx, app.Config{Pool: examplePool, LLM: llm.Config{Provider: builtin.New()}})
	if err != nil {
		panic(err)
	}
	defer a.Close()

	cmds := a.Commands
	sub, err := cmds.SubmitDemand(ctx, "u1", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	if err != nil {
		panic(err)
	}
	fmt.Println("channel is the demand's:", sub.ChannelID == negotiation.ChannelIDFor(sub.DemandID))

	var done *negotiation.NegotiationCompleted
	err = a.Store.Subscribe(ctx, eventstore.SubscribeOptions{Notifier: a.Notifier,
		Filter: eventstore.Filter{CorrelationID: sub.DemandID}},
		func(_ context.Context, batch []eventstore.RecordedEvent) error {
			for _, e := range batch {
				p, err := e.Decode()
				if err != nil {
					return err
				}
				if c, ok := p.(*negotiation.NegotiationCompleted); ok && c.ChannelID == sub.ChannelID {
					done = c
					return errDone
				}
			}
			return nil
		})
	if !errors.Is(err, errDone) {
		panic(err)
	}
	fmt.Println("status:", done.Status)
	fmt.Println("has a plan:", done.FinalProposal != nil && len(done.FinalProposal.Assignments) > 0)

	// Bad input is refused by the domain, and nothing is written.
	_, err = cmds.SubmitDemand(ctx, "u1", "   ")
	fmt.Println(errors.Is(err, negotiation.ErrDemandEmpty))
	// Output:
	// channel is the demand's: true
	// status: finalized
	// has a plan: true
	// true
}
