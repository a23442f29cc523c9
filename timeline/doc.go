// Package timeline says how events read to a person: the one-line summary
// of every event ([Describe]), the short names of the original design and
// their mapping onto the event catalog ([Canonical], [Aliases]), and the
// bridge that turns stored events into those short-named frames ([Bridge],
// [BridgeRoutes]).
package timeline
