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
// [Agents], [Quality] and [Workflows]. Each is declared once, by one
// [Model] value in its own file: its name, the event types it folds, its
// Apply (the live fold, and the specification of its rows), and the
// statements that empty its tables, fold them again and fingerprint them
// (queries/). [Runner.Rebuild] folds one again from the first event in one
// transaction; every one of them is an [SQLRebuilder]. Most rebuild with a
// few INSERT ... SELECT statements over the events table instead of one
// statement per event; two fold in Go where their rows are a Go fold:
// Quality's scores (quality.Score, run once per ended negotiation, reading
// the log through its queries) and Workflows' workflows (the domain's
// workflow.Workflow.Apply over each workflow stream, in memory). Apply stays
// the specification: the tests require every rebuild to give the live
// fold's rows exactly (md5 of every row).
//
// A JSON column holding a payload's member (a proposal, an agent's
// profile) holds it as recorded in the event, in the live fold and in the
// SQL alike, and the columns are jsonb: rows compare by their JSON's
// meaning, never by one encoder's bytes.
package projections
