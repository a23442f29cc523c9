// Package eventstore is ToWow's append-only event log on PostgreSQL: the only
// source of truth of the system.
//
// # Model
//
// Every event belongs to one stream (a demand, a channel, an agent profile)
// and carries
//
//   - event_id: a UUID chosen by the writer; appending an event_id that is
//     already stored is an idempotent no-op, reported as AppendResult.Duplicate;
//   - stream_id and stream_version: 1..n, gap-free and unique per stream;
//   - global_position: the store-wide cursor (RecordedEvent.Position);
//   - event_type: always "towow." followed by dot-separated lowercase words;
//   - payload: a JSON object (at most Options.MaxPayloadBytes, 256 KiB by
//     default);
//   - metadata: a JSON object with correlation_id (the root demand id of a
//     negotiation tree), causation_id, actor and schema_version
//     (event.Metadata);
//   - recorded_at: the database clock when the row was inserted.
//
// Appends go through [Store.AppendTx] inside a caller-supplied pgx.Tx, so a
// caller can append events and enqueue River jobs in one commit, or through
// [Store.Append] which runs its own transaction. Each append is atomic for all
// its events and checks an [ExpectedVersion] (exact, [NoStream] or
// [AnyVersion]); a mismatch returns a [*VersionConflictError] carrying the
// actual version and writes nothing. Bad input (type without the "towow."
// prefix, payload that is not a JSON object or is too large, empty stream id)
// is rejected before the database is touched, with an [*InvalidEventError].
//
// # Ordering: readers stop below the oldest transaction in flight
//
// Appends to different streams run and commit in parallel: an append
// takes only its stream's lock (the one [Store.LockStreams] takes), and no
// appending transaction sends a NOTIFY (a notifying transaction holds
// PostgreSQL's notification-queue lock through its commit, which would
// line all commits up again).
//
// An event's position is its transaction's id shifted left by 16 bits,
// plus the number of events the transaction appended before it, plus a
// base fixed when the schema was upgraded (so positions kept rising
// across the upgrade). The log is therefore ordered by transaction id,
// then by append order within a transaction; positions are known when the
// events are inserted, so an append returns them. A transaction may
// append at most 65,536 events. A row inserted without a position (psql)
// gets its transaction's next one; the store does not check positions a
// writer gives itself (a restore copies the stored ones), and after a
// restore into another cluster the server moves the base up at start, so
// new events still come after the restored ones.
//
// A transaction id is drawn when a transaction first writes, not when it
// commits, so a transaction still in flight may commit events below
// positions that are already visible. Readers therefore read only below
// the settled bound (towow_settled_below in the schema): the position of
// the oldest transaction of this database still in flight (the current
// snapshot's in-progress list, less transactions seen running in other
// databases, which cannot write here). Below it every transaction has
// committed or aborted, so nothing can appear there any more. A reader
// can read "global_position > cursor AND global_position < bound ORDER BY
// global_position" and advance its cursor to the last row it saw without
// ever skipping an event. Cursors are single integers, usable directly as
// SSE ids and audit cursors; they are increasing but sparse.
//
// The bound is exact for the query that computed it, but two queries do
// not always agree in time order: a transaction that is not waited for
// (another database's, or one declared to append nothing) and that ends
// between a query's snapshot and its look at the running backends is
// waited for by that query, whose bound then dips below an earlier
// query's. So no query's bound vouches for another's rows: [Store.ReadPage]
// returns with its events how far its own read is complete
// ([Page.Through]), and the hub, subscriptions and projection catch-up
// advance by that. A Store also looks again when a short read dips below
// the highest bound it has seen (the next query no longer has the ended
// transaction in its snapshot), so its reads, and WaitSettled, never go
// back behind one another.
//
// Other guarantees:
//
//   - a stream's versions follow its positions: the stream lock orders
//     appends to one stream, and an append whose transaction took its id
//     before the stream's last event was appended is refused as a version
//     conflict (decide again in a new transaction);
//   - an event appended after its writer read another (through the log or
//     its stream) has a higher position: the writer's id is drawn at its
//     first write, after the read;
//   - reads of one stream ([Store.ReadStream], [Store.Fold]) see every
//     committed event, settled or not: a decision always sees the latest
//     version.
//
// The price: a write transaction of this database that stays open (idle
// in transaction, or a long batch) holds every reader back until it ends,
// whether or not it appends; transactions of other databases on the same
// server do not. Keep write transactions short; the server's
// idle_in_transaction_session_timeout is a good guard. GET /api/v1/status
// reports the committed events waiting so (unsettled_events).
//
// Do not append from a REPEATABLE READ or SERIALIZABLE transaction whose
// snapshot predates the stream lock: the version check would read a stale
// stream. The unique (stream_id, stream_version) constraint still refuses
// the write.
//
// # Subscriptions
//
// A [Notifier] keeps one LISTEN connection per process on the channel
// "towow_events" and fans wake-ups out in memory. After appends commit, the
// store sends one NOTIFY in a transaction of its own ([Store.Committed];
// [Store.Append] and the unit of work call it), folding commits that come
// while one is being sent into the next. [Store.Subscribe] first catches
// up from its cursor in batches, then waits for a wake-up (or a poll
// interval, so a lost notification costs latency, never data) and reads
// again; while committed events wait for an older transaction to end, it
// looks again within milliseconds, since that transaction may never
// announce anything. The notification is only a wake-up: the events are
// always read from the table.
package eventstore
