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
// # Ordering: positions are handed out in commit order
//
// With a plain sequence and concurrent writers, a transaction that drew
// position 41 can commit after one that drew 42; a reader that already moved
// past 42 would never see 41. This store closes that gap by serializing
// appends (mechanism "A" of the design guide):
//
//   - every INSERT into events first takes one transaction-scoped advisory
//     lock, towow_lock_events(). The server-side append function
//     towow_append (which Append and AppendTx call) takes it first, and a
//     BEFORE INSERT ... FOR EACH STATEMENT trigger takes it for any other
//     writer (psql, a future migration), before the identity column draws a
//     position;
//   - the lock is released only after the transaction's commit (or abort) is
//     complete and visible, so the next appender draws its positions strictly
//     after every earlier appender has finished.
//
// Hence, whenever a reader sees a committed event at position P, every
// position below P belongs to a transaction that has already committed
// (visible to the reader) or aborted (a hole that is never filled). A reader
// can therefore read "global_position > cursor ORDER BY global_position" and
// advance its cursor to the last row it saw without ever skipping an event.
// Cursors are single integers, usable directly as SSE ids and audit cursors;
// they are increasing but not dense (a rolled-back append leaves a hole).
//
// The price is that appends commit one at a time: the lock is held from the
// append to the end of the commit (one WAL flush). The caller should append
// as the last step of its transaction. PostgreSQL itself serializes the
// commits of transactions that NOTIFY (they take a global lock on the
// notification queue at pre-commit), so a store that notifies on every
// append pays most of this cost anyway. `towow bench append` measures it.
//
// Do not append from a REPEATABLE READ or SERIALIZABLE transaction whose
// snapshot predates the lock: the version check would read a stale stream.
// The unique (stream_id, stream_version) constraint still refuses the write.
//
// # Subscriptions
//
// A [Notifier] keeps one LISTEN connection per process on the channel
// "towow_events" (the insert trigger queues a NOTIFY that PostgreSQL delivers
// when the appending transaction commits) and fans wake-ups out in memory. [Store.Subscribe] first catches up
// from its cursor in batches, then waits for a wake-up (or a poll interval, so
// a lost notification costs latency, never data) and reads again. The
// notification is only a wake-up: the events are always read from the table.
package eventstore
