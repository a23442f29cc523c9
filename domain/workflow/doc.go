// Package workflow is the workflow context of the ToWow domain: the agreed
// plan carried out. A [Workflow] is a stream folded from its events; a
// [Decision] is a command that the ordered chain of [Validators] lets
// through (with corrections) or rejects, and the verdict is itself an
// event. The package also holds the canvas batches, the conversation
// agent's state, the DAG scheduler (which nodes are ready, which are
// skipped, whether the workflow is done) and the data flow between nodes
// (references.go: {{nodes.<id>.output.<key>}} and the like, looked up,
// never evaluated, checked by the data_flow validator and rendered when a
// node starts).
//
// The package is pure: it imports only the Go standard library and the
// domain packages event and negotiation, and performs no I/O.
package workflow
