package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"io"
	"time"

	"github.com/towow/towow/app"
)

func cmdServe(ctx context.Context, cfg config, args []string, _, stderr io.Writer) error {
	if len(args) != 0 {
		return fmt.Errorf("%w: towow serve takes no arguments (configure it with the environment, see towow --help)", errUsage)
	}
	started := time.Now()
	drawn := cfg.AdminToken == ""
	if drawn {
		token, err := randomAdminToken()
		if err != nil {
			return err
		}
		cfg.AdminToken = token
	}
	ac := cfg.app(stderr, false)
	ac.Addr, ac.ReadModels, ac.Hub, ac.Metrics = cfg.Addr, true, true, true
	a, err := app.New(ctx, ac)
	if err != nil {
		return err
	}
	defer a.Close()
	if drawn {
		fmt.Fprintf(stderr, "towow: TOWOW_ADMIN_TOKEN is unset; the admin token of this run is %s\n", cfg.AdminToken)
	}
	ac.Logger.Info("towow started", "llm", cfg.LLM, "startup", time.Since(started).Round(time.Millisecond))
	return a.Run(ctx)
}

// randomAdminToken draws the admin token of a run without TOWOW_ADMIN_TOKEN.
func randomAdminToken() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	return "towow_admin_" + base64.RawURLEncoding.EncodeToString(b[:]), nil
}
