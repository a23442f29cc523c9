// Package database opens the pgx connection pool every ToWow process uses,
// with the settings the event store and River rely on, and turns connection
// failures into one readable line.
package database

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// DefaultMaxConns is the pool size used when the URL sets no pool_max_conns.
// pgxpool's own default (max(4, NumCPU)) is too small for River workers plus
// the API plus subscriptions on a 2-core machine.
const DefaultMaxConns = 64

// Options tunes Open.
type Options struct {
	// ApplicationName is reported in pg_stat_activity (default "towow").
	ApplicationName string
	// ConnectTimeout bounds the first ping (default 10s).
	ConnectTimeout time.Duration
	// Tracer, when set, sees every query of the pool (tracing's database
	// spans); nil: none.
	Tracer pgx.QueryTracer
}

// Open parses url, applies ToWow's pool settings and pings the server once.
// A failure returns an error whose message names the server (password
// removed) and the cause on one line.
func Open(ctx context.Context, dsn string, opts Options) (*pgxpool.Pool, error) {
	if opts.ApplicationName == "" {
		opts.ApplicationName = "towow"
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 10 * time.Second
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		cause := errors.Unwrap(err) // pgx's ParseConfigError repeats the whole URL; keep its cause
		if cause == nil {
			cause = err
		}
		return nil, fmt.Errorf("invalid database url %s: %w", Redact(dsn), cause)
	}
	if !strings.Contains(dsn, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	if opts.Tracer != nil {
		cfg.ConnConfig.Tracer = opts.Tracer
	}
	rp := cfg.ConnConfig.RuntimeParams
	if _, ok := rp["application_name"]; !ok {
		rp["application_name"] = opts.ApplicationName
	}
	// A write transaction left open holds every event reader back (see
	// eventstore's package doc): the server ends one that sits idle this
	// long. The URL may set another value.
	if _, ok := rp["idle_in_transaction_session_timeout"]; !ok {
		rp["idle_in_transaction_session_timeout"] = IdleInTransactionTimeout
	}
	cfg.AfterConnect = registerRawJSON
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", Redact(dsn), err)
	}
	pctx, cancel := context.WithTimeout(ctx, opts.ConnectTimeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("database %s unreachable: %s", Redact(dsn), oneLine(err))
	}
	return pool, nil
}

// NoAppendsSuffix ends the application name of a session that appends no
// events. The log's readers do not wait for such a session's write
// transactions to end (towow_settled_below), and an append from one is
// refused (towow_take_positions).
const NoAppendsSuffix = " (no appends)"

// DeclareNoAppends names every session of cfg's pool as one that appends
// no events (NoAppendsSuffix), keeping its application name (clipped to
// 48 bytes, so that the whole name fits the server's 63).
func DeclareNoAppends(cfg *pgxpool.Config) {
	rp := cfg.ConnConfig.RuntimeParams
	name := rp["application_name"]
	if strings.HasSuffix(name, NoAppendsSuffix) {
		return
	}
	if len(name) > 48 {
		name = strings.ToValidUTF8(name[:48], "")
	}
	rp["application_name"] = name + NoAppendsSuffix
}

// IdleInTransactionTimeout is the server setting idle_in_transaction_session_timeout
// that Open asks for unless the URL names one.
const IdleInTransactionTimeout = "60s"

// Redact returns a connection string with its password replaced by "xxxxx",
// safe to print.
func Redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.Scheme == "" {
		return "(unparsable url)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// oneLine reduces a pgx connect error to its innermost readable cause.
func oneLine(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message + " (SQLSTATE " + pgErr.Code + ")"
	}
	var connErr *pgconn.ConnectError
	if errors.As(err, &connErr) {
		if inner := errors.Unwrap(connErr); inner != nil {
			err = inner
		}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "timed out connecting"
	}
	// pgx reports one cause per connection attempt (e.g. with TLS, then
	// without); say each distinct cause once.
	var parts []string
	for _, p := range strings.Split(strings.ReplaceAll(err.Error(), "\n", " "), "; ") {
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "; ")
}
