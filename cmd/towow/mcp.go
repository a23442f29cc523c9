package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/towow/towow/app"
	"github.com/towow/towow/mcpserver"
)

// cmdMCP serves ToWow's MCP tools over stdio (newline-delimited JSON-RPC
// on stdin and stdout): an MCP client starts `towow mcp` as a subprocess.
// By default it runs an App in this process like `towow serve` (the same
// environment: the database, the engine, the read models) without a
// listener, its tools calling the App's REST API in process; with
// --server URL it runs no App and calls a running server's API instead.
// Stdout is the protocol: every log line goes to stderr.
func cmdMCP(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	server := fs.String("server", "", "call the REST API of a running `towow serve` at this URL (e.g. http://127.0.0.1:8080) instead of running ToWow in this process")
	token := fs.String("token", "", "with --server: the bearer token the tools act with (a user's token, e.g. from `towow token --user NAME`, or the admin token); default $TOWOW_ADMIN_TOKEN")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() != 0 {
		return fmt.Errorf("%w: towow mcp takes no arguments but --server URL", errUsage)
	}
	// Anything printed to os.Stdout would corrupt the protocol: from here on
	// it is stderr, and the protocol has the real stdout to itself.
	if f, ok := stdout.(*os.File); ok && f == os.Stdout {
		os.Stdout = os.Stderr
		defer func() { os.Stdout = f }()
	}
	var mc mcpserver.Config
	if *server != "" {
		u, err := url.Parse(*server)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w: --server %q is not an http(s) URL", errUsage, *server)
		}
		mc = mcpserver.Config{BaseURL: *server, HTTPClient: &http.Client{Timeout: 30 * time.Second}, Logger: cfg.logger(stderr),
			Token: cmp.Or(*token, cfg.AdminToken)}
	} else {
		// In this process the tools act as the operator of the database
		// they open (a token of this run, never printed).
		if cfg.AdminToken == "" {
			t, err := randomAdminToken()
			if err != nil {
				return err
			}
			cfg.AdminToken = t
		}
		ac := cfg.app(stderr, false)
		ac.ReadModels = true
		a, err := app.New(ctx, ac)
		if err != nil {
			return err
		}
		defer a.Close()
		mc = a.MCP()
		ac.Logger.Info("towow mcp serving on stdio", "llm", cfg.LLM)
	}
	err := mcpserver.New(mc).Run(ctx, &mcp.IOTransport{Reader: os.Stdin, Writer: nopCloser{stdout}})
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client closed the connection: done
	}
	return fmt.Errorf("mcp: %w", err)
}

// nopCloser is the protocol's writer: closing the session leaves stdout
// open.
type nopCloser struct{ io.Writer }

// Close does nothing.
func (nopCloser) Close() error { return nil }
