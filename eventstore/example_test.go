package eventstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/internal/dbtest"
)

// examplePool is a migrated database for the runnable examples.
var examplePool *pgxpool.Pool

func TestMain(m *testing.M) { dbtest.Main(m, &examplePool) }

// Append typed events with an expected version; a stale version is a typed
// conflict that carries the actual version and writes nothing.
func ExampleStore_Append() {
	ctx := context.Background()
	store := eventstore.New(examplePool, eventstore.Options{})
	md := event.Metadata{CorrelationID: "d-example", Actor: event.UserActor("u1")}

	submitted, err := eventstore.NewEvent(uuid.Nil, &negotiation.DemandSubmitted{
		DemandID: "d-example", UserID: "u1", RawInput: "我想在北京办一场AI主题聚会，需要场地和嘉宾",
	}, md)
	if err != nil {
		panic(err)
	}
	res, err := store.Append(ctx, "demand-d-example", eventstore.NoStream, submitted)
	fmt.Println("appended version", res.LastVersion, err)

	// The same stream again with "no stream": someone else was first.
	again, _ := eventstore.NewEvent(uuid.Nil, &negotiation.DemandSubmitted{DemandID: "d-example", UserID: "u2", RawInput: "x"}, md)
	_, err = store.Append(ctx, "demand-d-example", eventstore.NoStream, again)
	var conflict *eventstore.VersionConflictError
	fmt.Println("conflict:", errors.As(err, &conflict), "actual version", conflict.Actual)

	// Reading back decodes through the event catalog.
	events, _ := store.ReadStream(ctx, "demand-d-example", 1, 10)
	p, _ := events[0].Decode()
	fmt.Println(events[0].Type, p.(*negotiation.DemandSubmitted).RawInput)
	// Output:
	// appended version 1 <nil>
	// conflict: true actual version 1
	// towow.demand.submitted 我想在北京办一场AI主题聚会，需要场地和嘉宾
}

// Subscribe delivers the backlog and then new events as they commit, woken
// by the process's one LISTEN connection.
func ExampleStore_Subscribe() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	store := eventstore.New(examplePool, eventstore.Options{})
	notifier := eventstore.NewNotifier(examplePool.Config().ConnConfig, nil)
	go func() { _ = notifier.Run(ctx) }()

	from, _ := store.HeadPosition(ctx)
	filter := eventstore.Filter{CorrelationID: "d-sub"}
	got := make(chan string)
	go func() {
		_ = store.Subscribe(ctx, eventstore.SubscribeOptions{After: from, Filter: filter, Notifier: notifier},
			func(_ context.Context, batch []eventstore.RecordedEvent) error {
				for _, e := range batch {
					got <- fmt.Sprintf("%s v%d", e.Type, e.StreamVersion)
				}
				return nil
			})
	}()
	md := event.Metadata{CorrelationID: "d-sub", Actor: event.ActorCoordinator}
	for _, p := range []event.Payload{
		&negotiation.DemandSubmitted{DemandID: "d-sub", UserID: "u1", RawInput: "need a venue"},
		&negotiation.DemandUnderstood{DemandID: "d-sub"},
	} {
		ev, _ := eventstore.NewEvent(uuid.Nil, p, md)
		if _, err := store.Append(ctx, "demand-d-sub", eventstore.AnyVersion, ev); err != nil {
			panic(err)
		}
	}
	fmt.Println(<-got)
	fmt.Println(<-got)
	// Output:
	// towow.demand.submitted v1
	// towow.demand.understood v2
}

// A Hub serves any number of live followers from one shared tail of the
// log: here one follower resumes from the start (read from the database)
// and continues live (from the hub's memory).
func ExampleHub_Follow() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	store := eventstore.New(examplePool, eventstore.Options{})
	notifier := eventstore.NewNotifier(examplePool.Config().ConnConfig, nil)
	go func() { _ = notifier.Run(ctx) }()
	hub := eventstore.NewHub(store, notifier, eventstore.HubOptions{})
	go func() { _ = hub.Run(ctx) }()

	md := event.Metadata{CorrelationID: "d-hub", Actor: event.ActorCoordinator}
	appendOne := func(p event.Payload) {
		ev, _ := eventstore.NewEvent(uuid.Nil, p, md)
		if _, err := store.Append(ctx, "demand-d-hub", eventstore.AnyVersion, ev); err != nil {
			panic(err)
		}
	}
	appendOne(&negotiation.DemandSubmitted{DemandID: "d-hub", UserID: "u1", RawInput: "need a venue"})

	got := make(chan string)
	go func() {
		_ = hub.Follow(ctx, 0, eventstore.Filter{CorrelationID: "d-hub"}, func(_ context.Context, batch []eventstore.RecordedEvent) error {
			for _, e := range batch {
				got <- fmt.Sprintf("%s v%d", e.Type, e.StreamVersion)
			}
			return nil
		})
	}()
	fmt.Println(<-got) // the backlog
	appendOne(&negotiation.DemandUnderstood{DemandID: "d-hub"})
	fmt.Println(<-got) // live
	// Output:
	// towow.demand.submitted v1
	// towow.demand.understood v2
}
