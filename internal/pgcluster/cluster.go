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
	"time"
)

// Config configures [Start].
type Config struct {
	// DataDir is the cluster directory, e.g. $TOWOW_DATA_DIR/pg. The
	// password, lock, owner and log files are created next to it.
	DataDir string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// BinDir, when set, is the only directory searched for initdb, pg_ctl
	// and postgres. When empty they are looked up on PATH, then in the
	// newest /usr/lib/postgresql/*/bin.
	BinDir string
}

// Cluster is a running PostgreSQL cluster, started or attached to by [Start].
type Cluster struct {
	layout   layout
	acct     *account
	binDir   string
	logger   *slog.Logger
	password string
	port     int
	pid      int // postmaster pid

	mu      sync.Mutex
	owned   bool
	stopped bool
}

// layout holds the paths of a cluster (see the package documentation).
type layout struct {
	dataDir  string
	password string
	lock     string
	owner    string
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
		lock:     abs + ".lock",
		owner:    abs + ".owner",
		log:      abs + ".log",
	}, nil
}

// Start makes sure a PostgreSQL cluster runs in cfg.DataDir and returns it
// once it accepts connections. It initialises the cluster if the directory
// holds none; it starts a postmaster (and owns it) if none runs; it attaches
// to a running one otherwise, adopting it when its recorded owner is dead.
// Concurrent calls, from any process, are serialised by a lock file. It
// returns an error wrapping [ErrNoBinaries] when PostgreSQL is not installed.
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
	if err := c.startLocked(ctx); err != nil {
		return nil, fmt.Errorf("start postgres in %s: %w", l.dataDir, err)
	}
	return c, nil
}

// startLocked runs the check-init-start sequence; the caller holds the lock.
func (c *Cluster) startLocked(ctx context.Context) error {
	begin := time.Now()
	l := c.layout
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return err
	}
	switch state {
	case stateRunning:
		return c.attach(ctx, pm)
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

	c.port, c.pid, err = startPostmaster(ctx, l, c.acct, bins, c.logger)
	if err != nil {
		return err
	}
	c.owned = true
	if err := writeOwner(l.owner, selfOwner(c.pid)); err != nil {
		return err
	}
	if err := waitReady(ctx, c.port); err != nil {
		return err
	}
	c.logger.InfoContext(ctx, "postgres started", "dir", l.dataDir, "port", c.port, "pid", c.pid, "took", time.Since(begin).Round(time.Millisecond))
	return nil
}

// attach joins the postmaster pm that already serves the directory,
// adopting it when its recorded owner is gone.
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
	rec, err := readOwner(l.owner)
	if err == nil && rec.postmaster == pm.pid && rec.alive() {
		c.logger.DebugContext(ctx, "attached to running postgres", "dir", l.dataDir, "port", c.port, "owner", rec.pid)
	} else {
		if err := writeOwner(l.owner, selfOwner(pm.pid)); err != nil {
			return err
		}
		c.owned = true
		c.logger.InfoContext(ctx, "adopted running postgres whose owner is gone", "dir", l.dataDir, "port", c.port, "previous_owner", rec.pid)
	}
	return waitReady(ctx, c.port)
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

// Owned reports whether this Cluster started (or adopted) the postmaster
// and will therefore stop it in [Cluster.Stop].
func (c *Cluster) Owned() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.owned
}

// Stop stops the postmaster if this Cluster owns it and it is still the one
// it started; otherwise it does nothing. It is idempotent.
func (c *Cluster) Stop(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.owned || c.stopped {
		return nil
	}
	l := c.layout
	release, err := acquireLock(ctx, l.lock)
	if err != nil {
		return err
	}
	defer release()
	pm, state, err := inspect(l.dataDir)
	if err != nil {
		return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
	}
	if state == stateRunning && pm.pid == c.pid {
		major, _ := clusterVersion(l.dataDir)
		bins, binErr := findBinaries(c.binDir, major)
		if err := stopPostmaster(ctx, l, c.acct, bins, binErr == nil, pm); err != nil {
			return fmt.Errorf("stop postgres in %s: %w", l.dataDir, err)
		}
		c.logger.InfoContext(ctx, "postgres stopped", "dir", l.dataDir, "port", c.port)
	}
	if rec, err := readOwner(l.owner); err == nil && rec.postmaster == c.pid && rec.isSelf() {
		_ = os.Remove(l.owner)
	}
	c.stopped = true
	return nil
}

// Stop stops whatever postmaster runs in dataDir, whoever owns it (towow db
// stop, clean-up after tests). It does nothing when no server runs there.
func Stop(ctx context.Context, dataDir string) error {
	l, err := newLayout(dataDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(l.dataDir); errors.Is(err, fs.ErrNotExist) {
		return nil
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
	if err := os.Remove(l.owner); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove owner file: %w", err)
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
