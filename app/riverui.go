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

// riverUI returns the River UI mount over the engine's River client,
// building and starting the handler the first time (its background
// queries stop on Close).
func (a *App) riverUI() (api.Mount, error) {
	a.riverUIOnce.Do(func() {
		h, err := riverui.NewHandler(&riverui.HandlerOpts{
			Endpoints: riverui.NewEndpoints(a.Engine.River(), nil),
			Logger:    a.loops,
			Prefix:    RiverUIPath,
		})
		if err != nil {
			a.riverUIErr = fmt.Errorf("river ui: %w", err)
			return
		}
		ctx, stop := context.WithCancel(context.Background())
		if err := h.Start(ctx); err != nil {
			stop()
			a.riverUIErr = fmt.Errorf("start river ui: %w", err)
			return
		}
		a.closers = append(a.closers, stop)
		a.riverUIMount = api.Mount{Pattern: RiverUIPath, Handler: h, Admin: true, Session: true}
	})
	return a.riverUIMount, a.riverUIErr
}
