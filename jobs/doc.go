// Package jobs is ToWow's River plumbing: the one River client of a process
// (Runner), on which every process registers its own workers and periodic
// jobs; the middleware every step runs in (its log attributes, the trace
// of its negotiation tree); and the liveness lock and sweep that make the
// steps of a dead process available again within seconds.
//
// Liveness is here, not with the external agents' presence: it is about
// River's worker processes, whatever jobs they run.
//
// A job kind is one file in the process that owns it: its arguments (a
// `XArgs` struct with a stable Kind — the kind strings are stored in
// river_job rows) and its worker (`XWorker` with Work). Writes go through
// package uow.
package jobs
