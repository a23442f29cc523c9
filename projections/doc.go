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
// This foundation has one read model, [Streams] (a row per event stream);
// the demand, channel, proposal, offer, feedback, agent and LLM-call read
// models, rebuild and lag metrics come with the API.
package projections
