package app

import (
	"context"
	"fmt"

	"riverqueue.com/riverui"

	"github.com/towow/towow/api"
)

// RiverUIPath is where the API serves River UI, River's job dashboard,
// behind the admin token (a bearer header, or the session cookie a
// browser gets from POST /riverui/session).
const RiverUIPath = "/riverui/"

// newRiverUI builds and starts River UI's handler over the write side's River
// client (its background queries stop on Close) and returns its mount;
// App.riverUI calls it once.
func (a *App) newRiverUI() (api.Mount, error) {
	h, err := riverui.NewHandler(&riverui.HandlerOpts{
		Endpoints: riverui.NewEndpoints(a.WriteSide.Jobs.River(), nil),
		Logger:    a.loops,
		Prefix:    RiverUIPath,
	})
	if err != nil {
		return api.Mount{}, fmt.Errorf("river ui: %w", err)
	}
	ctx, stop := context.WithCancel(context.Background())
	if err := h.Start(ctx); err != nil {
		stop()
		return api.Mount{}, fmt.Errorf("start river ui: %w", err)
	}
	a.closers = append(a.closers, stop)
	return api.Mount{Pattern: RiverUIPath, Handler: h, Admin: true, Session: true}, nil
}
