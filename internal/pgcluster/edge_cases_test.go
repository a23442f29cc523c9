package pgcluster

import (
	"context"
	"errors"
	"net"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestCancelDuringStart cancels Start's context during a cold start,
// before pg_ctl start and after it has started the server: Start must
// report the cancellation and leave no server running.
func TestCancelDuringStart(t *testing.T) {
	requireBinaries(t)
	for _, stage := range []string{stageInitialised, stageStarted} {
		t.Run(stage, func(t *testing.T) {
			dir := testDataDir(t)
			ctx, cancel := context.WithCancel(testContext(t))
			defer cancel()
			reached := false
			testHook = func(s string) {
				if s == stage {
					reached = true
					cancel()
				}
			}
			t.Cleanup(func() { testHook = nil })

			c, err := Start(ctx, Config{DataDir: dir})
			if err == nil {
				_ = c.Stop(context.Background())
				t.Fatal("Start succeeded despite the cancellation")
			}
			if !reached || !errors.Is(err, context.Canceled) {
				t.Fatalf("reached %s: %v; Start = %v, want context.Canceled", stage, reached, err)
			}
			t.Logf("Start: %v", err)
			assertRunning(t, dir, false, 0)
			assertNoServerProcesses(t, dir)

			// The initialised cluster is intact and starts normally.
			testHook = nil
			c = startCluster(t, dir)
			if !c.Owned() {
				t.Fatal("Start after the interrupted one did not start the server")
			}
			mustQuery(t, c, "towow", "select 1")
			if err := c.Stop(testContext(t)); err != nil {
				t.Fatal(err)
			}
			assertRunning(t, dir, false, 0)
		})
	}
}

func TestPortTakenRetry(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	calls := 0
	pickPort = func() (int, error) {
		calls++
		if calls == 1 {
			return busyPort, nil
		}
		return freePort()
	}
	t.Cleanup(func() { pickPort = freePort })

	c := startCluster(t, dir)
	if calls < 2 || c.Port() == busyPort {
		t.Fatalf("calls=%d port=%d busy=%d", calls, c.Port(), busyPort)
	}
	mustQuery(t, c, "towow", "select 1")
}

func TestMissingPasswordFile(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)
	c := startCluster(t, dir)
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dir + ".password"); err != nil {
		t.Fatal(err)
	}
	c2 := startCluster(t, dir)
	if c2.password == c.password {
		t.Fatal("password not regenerated")
	}
	mustQuery(t, c2, "towow", "select 1")
}

func TestNoBinaries(t *testing.T) {
	empty := t.TempDir()
	oldPath, oldRoot := searchPath, libRoot
	searchPath = func() string { return empty }
	libRoot = empty
	t.Cleanup(func() { searchPath, libRoot = oldPath, oldRoot })

	dir := testDataDir(t)
	for _, cfg := range []Config{{DataDir: dir}, {DataDir: dir, BinDir: empty}} {
		_, err := Start(testContext(t), cfg)
		if !errors.Is(err, ErrNoBinaries) {
			t.Fatalf("Start(%+v) = %v, want ErrNoBinaries", cfg, err)
		}
		if strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "apt-get install postgresql") {
			t.Fatalf("error is not one helpful line: %q", err)
		}
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("data directory created without binaries: %v", err)
	}
}

func TestUntraversableParent(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only relevant when running as root")
	}
	requireBinaries(t)
	base := filepath.Dir(testDataDir(t))
	private := filepath.Join(base, "private")
	if err := os.Mkdir(private, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := Start(testContext(t), Config{DataDir: filepath.Join(private, "pg")})
	if err == nil || !strings.Contains(err.Error(), "directory "+private+" is not traversable") {
		t.Fatalf("Start = %v, want an error naming %s", err, private)
	}
}

func TestRootKeepsDataDirOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only relevant when running as root")
	}
	nobody, err := user.Lookup("nobody")
	if err != nil {
		t.Skip("no nobody user")
	}
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)
	c := startCluster(t, dir)
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(nobody.Uid)
	gid, _ := strconv.Atoi(nobody.Gid)
	if err := accountForID(uid, gid).chownTree(dir); err != nil {
		t.Fatal(err)
	}
	// A cluster that belongs to a non-root user keeps running as that user.
	c = startCluster(t, dir)
	fi, err := os.Stat(filepath.Join(dir, "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Sys().(*syscall.Stat_t).Uid; got != uint32(uid) {
		t.Fatalf("postmaster.pid owned by uid %d, want %d", got, uid)
	}
	mustQuery(t, c, "towow", "select 1")
}

func TestRelativeDefaultLayout(t *testing.T) {
	requireBinaries(t)
	base := filepath.Dir(testDataDir(t))
	t.Chdir(base)
	dir := filepath.Join(".towow", "pg")
	t.Cleanup(func() { _ = Stop(testContext(t), filepath.Join(base, dir)) })
	c := startCluster(t, dir)
	fi, err := os.Stat(filepath.Join(base, ".towow"))
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf(".towow: %v, %v", fi, err)
	}
	for _, name := range []string{"pg.password", "pg.lock", "pg.users", "pg.log"} {
		if _, err := os.Stat(filepath.Join(base, ".towow", name)); err != nil {
			t.Fatal(err)
		}
	}
	mustQuery(t, c, "towow", "select 1")
	if err := c.Stop(testContext(t)); err != nil {
		t.Fatal(err)
	}
}

func TestFindBinariesOrder(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"9.6", "13", "15", "notaversion"} {
		bin := filepath.Join(root, v, "bin")
		if err := os.MkdirAll(bin, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range serverPrograms {
			if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	oldPath, oldRoot := searchPath, libRoot
	searchPath = func() string { return "relative/bin:" + filepath.Join(root, "none") }
	libRoot = root
	t.Cleanup(func() { searchPath, libRoot = oldPath, oldRoot })

	for major, want := range map[string]string{"": "15", "13": "13", "12": "15"} {
		b, err := findBinaries("", major)
		if err != nil {
			t.Fatal(err)
		}
		if got := filepath.Base(filepath.Dir(b.dir)); got != want {
			t.Errorf("major %q: found %s, want version %s", major, b.dir, want)
		}
	}
	searchPath = func() string { return filepath.Join(root, "9.6", "bin") }
	if b, _ := findBinaries("", ""); !strings.Contains(b.dir, "9.6") {
		t.Errorf("PATH not preferred: %s", b.dir)
	}
}

// TestUsersLock checks the flock semantics the user count relies on:
// each open file description is a user, even within one process.
func TestUsersLock(t *testing.T) {
	ctx := testContext(t)
	path := filepath.Join(t.TempDir(), "users")
	u1, err := lockFile(ctx, path, syscall.LOCK_SH)
	if err != nil {
		t.Fatal(err)
	}
	u2, err := lockFile(ctx, path, syscall.LOCK_SH)
	if err != nil {
		t.Fatal(err)
	}
	tryLast := func() bool {
		t.Helper()
		f, ok, err := tryLockFile(path, syscall.LOCK_EX)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			unlockFile(f)
		}
		return ok
	}
	if tryLast() {
		t.Fatal("exclusive lock granted with two users")
	}
	unlockFile(u1)
	if tryLast() {
		t.Fatal("exclusive lock granted with one user left")
	}
	unlockFile(u2)
	if !tryLast() {
		t.Fatal("exclusive lock refused with no users")
	}
}

// TestPortKeptAcrossRestarts: a stopped cluster starts again on the port
// it had (recorded next to it), so processes holding its URL reconnect by
// themselves; when that port is taken meanwhile, it starts on another.
func TestPortKeptAcrossRestarts(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)
	c := startCluster(t, dir)
	first := c.Port()
	if err := Stop(ctx, dir); err != nil {
		t.Fatal(err)
	}
	c = startCluster(t, dir)
	if c.Port() != first {
		t.Fatalf("restarted on port %d, was %d", c.Port(), first)
	}
	mustQuery(t, c, "towow", "select 1")
	if err := Stop(ctx, dir); err != nil {
		t.Fatal(err)
	}
	busy, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(first))
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	c = startCluster(t, dir)
	if c.Port() == first {
		t.Fatalf("started on the taken port %d", first)
	}
	mustQuery(t, c, "towow", "select 1")
}
