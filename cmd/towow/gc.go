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
// GOGC is set (the runtime has read it then), and returns the target in
// force (negative: collection off).
func tuneGC(getenv func(string) string) int {
	if getenv("GOGC") != "" {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	debug.SetGCPercent(defaultGCPercent)
	return defaultGCPercent
}
