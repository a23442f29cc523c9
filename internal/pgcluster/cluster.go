package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Config configures [Start].
type Config struct {
	// DataDir is the cluster directory, e.g. $TOWOW_DATA_DIR/pg. The
	// password, port, lock, users, detached-marker and log files are
	// created next to it.
	DataDir string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// BinDir, when set, is the only directory searched for initdb, pg_ctl
	// and postgres. When empty they are looked up on PATH, then in the
	// newest /usr/lib/postgresql/*/bin.
	BinDir string
	// Detached leaves the server running for others once its users are
	// gone: Start creates the marker file <DataDir>.detached, and while it
	// exists no [Cluster.Stop] stops the server; only the package-level
	// [Stop] does, and it removes the marker. towow db start sets it. A
	// Start without Detached leaves an existing marker alone.
	Detached bool
	// DetachIfStarted is Detached only when this Start starts the server:
	// attaching to a running one changes nothing about who stops it, so a
	// server started by towow serve still stops when that serve exits
	// (towow db url).
	DetachIfStarted bool
}

// Cluster is a running PostgreSQL cluster, started or attached to by
// [Start]. Until [Cluster.Stop] it counts as one user of the server.
type Cluster struct {
	layout   layout
	acct     *account
	binDir   string
	logger   *slog.Logger
	password string
	port     int
	pid      int // postmaster pid

	mu      sync.Mutex
	owned   bool     // this Cluster started the postmaster
	users   *os.File // holds the shared lock on <dir>.users; nil once released
	stopped bool
}

// layout holds the paths of a cluster (see the package documentation).
type layout struct {
	dataDir  string
	password string
	port     string // the port of the last start, reused when free
	lock     string
	users    string
	detached string
	log      string
}

func newLayout(dataDir string) (layout, error) {
	if dataDir == "" {
		return layout{}, errors.New("no data directory given")
	}
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return layout{}, fmt.Errorf("resolve data directory: %w", err)
	}
	if filepath.Dir(abs) == abs {
		return layout{}, fmt.Errorf("data directory %s cannot be a file system root", abs)
	}
	return layout{
		dataDir:  abs,
		password: abs + ".password",
		port:     abs + ".port",
		lock:     abs + ".lock",
		users:    abs + ".users",
		detached: abs + ".detached",
		log:      abs + ".log",
	}, nil
}

// Stages of a start that starts the server, reported to testHook.
const (
	stageInitialised = "initialised" // the cluster exists, pg_ctl start is next
	stageStarted     = "started"     // pg_ctl start succeeded
)

// testHook, when a test sets it, is called at each stage of a start that
// starts the server; production code never sets it.
var testHook func(stage string)

func reachedStage(stage string) {
	if testHook != nil {
		testHook(stage)
	}
}

// Start makes sure a PostgreSQL cluster runs in cfg.DataDir and returns it
// once it accepts connections. It initialises the cluster if the directory
// holds none; it starts a postmaster if none runs ([Cluster.Owned] is then
// true); it attaches to the running one otherwise. The returned Cluster is
// a user of the server until its [Cluster.Stop] or the end of the process;
// the last user's Stop stops the server (see the package documentation).
// Concurrent calls, from any process, are serialised by a lock file.
//
// When ctx is cancelled during Start, Start stops any server it started
// and returns an error wrapping ctx.Err(). It also stops the server it
// started when a later step fails. It returns an error wrapping
// [ErrNoBinaries] when PostgreSQL is not installed.
func Start(ctx context.Context, cfg Config) (*Cluster, error) {
	l, err := newLayout(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	parent := filepath.Dir(l.dataDir)
	if err := makeDirs(parent); err != nil {
		return nil, fmt.Errorf("prepare %s: %w", parent, err)
	}
	release, err := acquireLock(ctx, l.lock)
	if err != nil {
		return nil, err
	}
	defer release()

	acct, err := serverAccount(l.dataDir)
	if err != nil {
		return nil, err
	}
	if err := acct.checkTraversable(parent); err != nil {
		return nil, err
	}
	c := &Cluster{layout: l, acct: acct, binDir: cfg.BinDir, logger: logger}
	if err := c.startLocked(ctx, cfg.Detached, cfg.Detached || cfg.DetachIfStarted); err != nil {
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			err = fmt.Errorf("%w: %w", cerr, err) // e.g. initdb killed by the cancellation
		}
		return nil, fmt.Errorf("start postgres in %s: %w", l.dataDir, err)
	}
	return c, nil
}

// startLocked runs the check-init-start sequence; the caller holds the
// lock. It marks the cluster detached when it attaches to a running server
// with attachDetached, or starts one with startDetached.
func (c *Cluster) startLocked(ctx context.Context, attachDetached, startDetached bool) error {
	begin := time.Now()
	l := c.layout
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return err
	}
	switch state {
	case stateRunning:
		if err := c.attach(ctx, pm); err != nil {
			return err
		}
		return c.join(ctx, attachDetached)
	case stateStale:
		c.logger.InfoContext(ctx, "removing stale postmaster.pid", "dir", l.dataDir, "pid", pm.pid)
		if err := os.Remove(filepath.Join(l.dataDir, "postmaster.pid")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove stale postmaster.pid: %w", err)
		}
	}

	major, err := clusterVersion(l.dataDir)
	if err != nil {
		return err
	}
	bins, err := findBinaries(c.binDir, major)
	if err != nil {
		return err
	}
	if major == "" {
		c.logger.InfoContext(ctx, "initialising postgres cluster", "dir", l.dataDir, "bin", bins.dir, "user", c.acct.name)
		if c.password, err = initCluster(ctx, l, c.acct, bins); err != nil {
			return err
		}
	} else {
		if err := c.acct.chownTree(l.dataDir); err != nil {
			return err
		}
		c.password, err = readPassword(l.password)
		if errors.Is(err, fs.ErrNotExist) {
			c.logger.WarnContext(ctx, "password file missing, setting a new password", "file", l.password)
			c.password, err = resetPassword(ctx, l, c.acct, bins)
		}
		if err != nil {
			return err
		}
	}

	reachedStage(stageInitialised)
	if err := ctx.Err(); err != nil {
		return err // interrupted before anything was started
	}
	if err := c.startServer(ctx, bins, startDetached); err != nil {
		// No server ran before (we hold the lock): whatever runs now is
		// the one this attempt started, and nobody else knows of it.
		if stopErr := c.stopStarted(ctx, bins); stopErr != nil {
			return fmt.Errorf("%w (stopping the server this start left running also failed: %v)", err, stopErr)
		}
		return err
	}
	c.logger.InfoContext(ctx, "postgres started", "dir", l.dataDir, "port", c.port, "pid", c.pid, "took", time.Since(begin).Round(time.Millisecond))
	return nil
}

// startServer starts the postmaster, waits until it accepts connections
// and joins it. On error, including ctx's cancellation at any point, the
// caller stops whatever server is left running.
func (c *Cluster) startServer(ctx context.Context, bins binaries, detached bool) error {
	port, pid, err := startPostmaster(ctx, c.layout, c.acct, bins, c.logger)
	if err != nil {
		return err
	}
	c.port, c.pid = port, pid
	reachedStage(stageStarted)
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := waitReady(ctx, c.port); err != nil {
		return err
	}
	if err := c.join(ctx, detached); err != nil {
		return err
	}
	c.owned = true
	return nil
}

// stopStarted stops the server that a failed or interrupted start left
// running in the directory, if any. It ignores the cancellation of ctx:
// the server must not outlive the Start that failed (pg_ctl's -t bounds
// the wait).
func (c *Cluster) stopStarted(ctx context.Context, bins binaries) error {
	l := c.layout
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return err
	}
	if state != stateRunning {
		return nil
	}
	c.logger.InfoContext(ctx, "stopping the postgres server of a failed start", "dir", l.dataDir, "pid", pm.pid)
	return stopPostmaster(context.WithoutCancel(ctx), l, c.acct, bins, true, pm)
}

// attach joins the postmaster pm that already serves the directory.
func (c *Cluster) attach(ctx context.Context, pm postmasterPID) error {
	l := c.layout
	pw, err := readPassword(l.password)
	if err != nil {
		return fmt.Errorf("postgres is running (pid %d) but its password is unavailable, stop it (towow db stop) so that the next start resets it: %w", pm.pid, err)
	}
	if pm.port <= 0 {
		return fmt.Errorf("postgres is running (pid %d) but postmaster.pid has no port", pm.pid)
	}
	c.password, c.port, c.pid = pw, pm.port, pm.pid
	if err := waitReady(ctx, c.port); err != nil {
		return err
	}
	c.logger.DebugContext(ctx, "attached to running postgres", "dir", l.dataDir, "port", c.port, "pid", c.pid)
	return nil
}

// join makes c a user of the running server: it takes a shared lock on
// <dir>.users, held until Stop, and with detached creates <dir>.detached.
// The caller holds <dir>.lock, under which alone the exclusive lock on
// <dir>.users is ever tried, so the shared lock is granted at once.
func (c *Cluster) join(ctx context.Context, detached bool) error {
	l := c.layout
	users, err := lockFile(ctx, l.users, syscall.LOCK_SH)
	if err != nil {
		return err
	}
	if detached {
		const note = "detached (towow db start or url): the server stays running after its last user; towow db stop stops it\n"
		if err := os.WriteFile(l.detached, []byte(note), 0o644); err != nil {
			unlockFile(users)
			return fmt.Errorf("write detached marker: %w", err)
		}
	}
	c.users = users
	return nil
}

// URL returns the connection URL of database on this cluster, as the towow
// superuser: postgres://towow:PASSWORD@127.0.0.1:PORT/database?sslmode=disable.
func (c *Cluster) URL(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(superuser, c.password),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// Port returns the TCP port the cluster listens on (on 127.0.0.1).
func (c *Cluster) Port() int { return c.port }

// Owned reports whether this Cluster started the postmaster, rather than
// attaching to one that was running. It is informational only: whether
// [Cluster.Stop] stops the server depends on the server's other users and
// on [Config.Detached], not on which Cluster started it.
func (c *Cluster) Owned() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.owned
}

// Stop ends this Cluster's use of the server. When no other Cluster, in
// this process or another, still uses the server, and the cluster is not
// detached ([Config.Detached]), it stops the postmaster running in the
// directory; otherwise it leaves the server running for the others. It is
// idempotent. When it fails (for instance ctx ends while it waits for the
// lock), it may be called again.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	l := c.layout
	release, err := acquireLock(ctx, l.lock)
	if err != nil {
		return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
	}
	defer release()
	if c.users != nil {
		unlockFile(c.users)
		c.users = nil
	}
	// An exclusive lock is granted only when no shared one remains: every
	// other user holds one from its Start until its Stop or its death.
	last, ok, err := tryLockFile(l.users, syscall.LOCK_EX)
	if err != nil {
		return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
	}
	if !ok {
		c.logger.DebugContext(ctx, "postgres left running for its other users", "dir", l.dataDir, "port", c.port)
		c.stopped = true
		return nil
	}
	defer unlockFile(last)
	if _, err := os.Stat(l.detached); err == nil {
		c.logger.DebugContext(ctx, "postgres left running: detached (towow db stop stops it)", "dir", l.dataDir, "port", c.port)
		c.stopped = true
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("stop postgres in %s: check detached marker: %w", l.dataDir, err)
	}
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
	}
	if state == stateRunning {
		major, _ := clusterVersion(l.dataDir)
		bins, binErr := findBinaries(c.binDir, major)
		if err := stopPostmaster(ctx, l, c.acct, bins, binErr == nil, pm); err != nil {
			return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
		}
		c.logger.InfoContext(ctx, "postgres stopped", "dir", l.dataDir, "port", pm.port)
	}
	c.stopped = true
	return nil
}

// Stop stops whatever postmaster runs in dataDir, whoever uses it and even
// when it is detached, and removes the detached marker (towow db stop,
// clean-up after tests). It does nothing else when no server runs there.
// Clusters still open on the server find it gone; their Stop then has
// nothing to stop.
func Stop(ctx context.Context, dataDir string) error {
	l, err := newLayout(dataDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(l.dataDir); errors.Is(err, fs.ErrNotExist) {
		return removeMarker(l.detached)
	}
	release, err := acquireLock(ctx, l.lock)
	if err != nil {
		return err
	}
	defer release()
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
	}
	if state == stateRunning {
		acct, err := serverAccount(l.dataDir)
		if err != nil {
			return err
		}
		major, _ := clusterVersion(l.dataDir)
		bins, binErr := findBinaries("", major)
		if err := stopPostmaster(ctx, l, acct, bins, binErr == nil, pm); err != nil {
			return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
		}
	}
	return removeMarker(l.detached)
}

// removeMarker removes the detached marker if it exists.
func removeMarker(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove detached marker: %w", err)
	}
	return nil
}

// Status reports whether a postmaster runs in dataDir and on which port.
// It needs no PostgreSQL binaries and takes no lock.
func Status(dataDir string) (running bool, port int, err error) {
	l, err := newLayout(dataDir)
	if err != nil {
		return false, 0, err
	}
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return false, 0, fmt.Errorf("status of postgres in %s: %w", l.dataDir, err)
	}
	if state != stateRunning {
		return false, 0, nil
	}
	return true, pm.port, nil
}
