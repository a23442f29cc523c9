package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/towow/towow/app"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/llm"
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
	people, err := cfg.people(ctx)
	if err != nil {
		return err
	}
	if people.Local() && !cfg.AllowRemote && !loopback(cfg.Addr) {
		return fmt.Errorf("%w: TOWOW_ADDR=%s is reachable from other machines, and local mode (no TOWOW_OIDC_ISSUER) lets anyone sign in as any name: listen on 127.0.0.1, configure an issuer, or set TOWOW_ALLOW_REMOTE=1", errUsage, cfg.Addr)
	}
	ac := cfg.app(stderr, false)
	if err := checkLLM(ctx, cfg, ac.LLM.Provider, ac.Logger); err != nil {
		return err
	}
	ac.Addr, ac.ReadModels, ac.Hub, ac.Metrics, ac.People = cfg.Addr, true, true, true, people
	if ac.Write.WebhookKey, err = webhookKey(cfg); err != nil {
		return err
	}
	a, err := app.New(ctx, ac)
	if err != nil {
		return err
	}
	defer a.Close()
	if drawn {
		fmt.Fprintf(stderr, "towow: TOWOW_ADMIN_TOKEN is unset; the admin token of this run is %s\n", cfg.AdminToken)
	}
	if people.Local() {
		ac.Logger.Warn("local mode: no identity provider (TOWOW_OIDC_ISSUER unset): the console signs people in by the name they type, "+
			"and `towow token --user NAME` mints API tokens", "signing_key", filepath.Join(cfg.DataDir, identity.SigningKeyFile))
	} else {
		ac.Logger.Info("people sign in with the identity provider", "issuer", cfg.OIDC.Issuer)
	}
	ac.Logger.Info("towow started", "llm", cfg.LLM, "startup", time.Since(started).Round(time.Millisecond))
	return a.Run(ctx)
}

// webhookKeyFile is the key the webhooks' signing secrets are derived
// from, in the data folder; every process of a deployment needs the same.
const webhookKeyFile = "webhook-key"

// webhookKey reads the webhooks' key from the data folder, creating it
// (32 random bytes, mode 0600) when there is none.
func webhookKey(cfg config) ([]byte, error) {
	path := filepath.Join(cfg.DataDir, webhookKeyFile)
	key, err := os.ReadFile(path)
	if err == nil && len(key) >= 32 {
		return key, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) { // another process made it first
		time.Sleep(100 * time.Millisecond)
		return webhookKey(cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("webhook key: %w", err)
	}
	_, werr := f.Write(key)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, fmt.Errorf("webhook key: %w", werr)
	}
	return key, nil
}

// loopback reports whether addr listens only on this machine.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// people builds who may sign in: the identity provider's users, or in
// local mode anyone by name, with the data folder's signing key.
func (c config) people(ctx context.Context) (*identity.Authority, error) {
	if c.OIDC.Issuer == "" {
		return identity.NewLocal(c.DataDir)
	}
	return identity.NewOIDC(ctx, c.DataDir, c.OIDC)
}

// cmdToken mints a local-mode user token.
func cmdToken(ctx context.Context, cfg config, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.String("user", "", "the user's name (letters, digits, '.', '_', '-'; at most 64)")
	ttl := fs.Duration("ttl", identity.LocalTokenTTL, "how long the token is valid")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() != 0 || *user == "" {
		return fmt.Errorf("%w: towow token --user NAME [--ttl DURATION]", errUsage)
	}
	if *ttl <= 0 {
		return fmt.Errorf("%w: --ttl must be positive", errUsage)
	}
	if cfg.OIDC.Issuer != "" {
		return fmt.Errorf("%w: TOWOW_OIDC_ISSUER is set: people bring the issuer's tokens, this server mints none", errUsage)
	}
	people, err := cfg.people(ctx)
	if err != nil {
		return err
	}
	tok, err := people.MintLocalToken(*user, *ttl)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	_, err = fmt.Fprintln(stdout, tok)
	return err
}

// randomAdminToken draws the admin token of a run without TOWOW_ADMIN_TOKEN.
func randomAdminToken() (string, error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("admin token: %w", err)
	}
	return "towow_admin_" + base64.RawURLEncoding.EncodeToString(b[:]), nil
}

// checkLLM asks a configured provider one cheap question before the
// server starts. A refused key stops the start (unless
// TOWOW_LLM_START_DEGRADED): every call would fall back. Any other
// failure (the provider down or slow now) is logged and the server
// starts: its calls retry, and /readyz shows the breaker.
func checkLLM(ctx context.Context, cfg config, p llm.Provider, log *slog.Logger) error {
	if cfg.LLM == "builtin" {
		return nil
	}
	err := llm.CheckProvider(ctx, p, max(cfg.LLMTimeout, 5*time.Second))
	switch {
	case err == nil:
		return nil
	case llm.Unauthorized(err) && !cfg.LLMStartDegraded:
		key := map[string]string{"anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY"}[cfg.LLM]
		return fmt.Errorf("TOWOW_LLM=%s: the provider refused %s (%v): fix the key, or set TOWOW_LLM_START_DEGRADED=1 to start with every call on its fallback",
			cfg.LLM, key, err)
	case llm.Unauthorized(err):
		log.Error("the LLM provider refused the key; starting degraded (TOWOW_LLM_START_DEGRADED): every call uses its fallback", "error", err)
	default:
		log.Warn("the LLM provider did not answer the start-up check; starting anyway", "error", err)
	}
	return nil
}
