// Package migrations holds the goose SQL migrations of the ToWow schema,
// embedded into the binary. They are also the schema of record for sqlc
// (see sqlc.yaml). Run them with package schema (internal/schema).
package migrations

import "embed"

// FS holds every *.sql migration at its root, as goose's provider expects.
//
//go:embed *.sql
var FS embed.FS

// Count returns the number of ToWow migrations.
func Count() int {
	entries, err := FS.ReadDir(".")
	if err != nil {
		panic("migrations: " + err.Error()) // the embedded FS is fixed at build time
	}
	return len(entries)
}
