// Package projections builds read models from the event log.
//
// A [Projector] folds events into its own tables. A [Runner] feeds it every
// event in log order, in batches; each batch is applied in one transaction
// that also moves the projector's checkpoint (projection_checkpoints), so
// the tables are always exactly the fold of the log up to the checkpoint:
// a crash loses nothing and applies nothing twice. The checkpoint row is
// locked for the batch (SELECT ... FOR UPDATE), so several processes may run
// the same projector at once: batches serialize, and events another process
// already applied are skipped.
//
// Read functions return view structs, never pgtype values.
//
// The read models are [All]: [Streams], [Demands], [Channels], [LLMCalls],
// [Agents] and [Quality]. Each is declared once, by one [Model] value in its own file:
// its name, the event types it folds, its Apply (the live fold, and the
// specification of its rows), and the statements that empty its tables,
// fold them again in SQL and fingerprint them (queries/). [Runner.Rebuild]
// folds one again from the first event in one transaction; every one of
// them is an [SQLRebuilder], whose rebuild is a few INSERT ... SELECT
// statements over the events table instead of one statement per event
// (but Quality's: its scores are a Go fold, which its rebuild runs once per
// ended negotiation, reading the log through its queries). Apply
// stays the specification: the tests require the SQL rebuild to give the
// live fold's rows exactly (md5 of every row).
package projections
