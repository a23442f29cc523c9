package main

import "runtime/debug"

// defaultGCPercent is the garbage collector's target when GOGC is unset:
// the heap may grow to five times what is live before the next
// collection. The engine allocates fast (events, prompts and model replies
// decoded and encoded as JSON) over a small live heap, so at Go's own 100
// the collector runs many times a second under load and takes a large
// share of the CPU it shares with PostgreSQL; memory is the cheaper
// resource here.
const defaultGCPercent = 400

// tuneGC sets the garbage collector's target to defaultGCPercent unless
// GOGC is set (the runtime has read it then, and its reading stands). It
// reports whether it set the target.
func tuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(defaultGCPercent)
	return true
}
