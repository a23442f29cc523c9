package pgcluster

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestLifecycle(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)

	begin := time.Now()
	c1 := startCluster(t, dir)
	t.Logf("cold start (initdb + start): %v", time.Since(begin))
	if !c1.Owned() {
		t.Fatal("first Start does not own the cluster")
	}
	if c1.Port() == 5432 || c1.Port() <= 0 {
		t.Fatalf("port = %d", c1.Port())
	}
	wantPrefix := fmt.Sprintf("postgres://towow:%s@127.0.0.1:%d/towow?sslmode=disable", c1.password, c1.Port())
	if got := c1.URL("towow"); got != wantPrefix {
		t.Fatalf("URL = %q, want %q", got, wantPrefix)
	}
	fi, err := os.Stat(dir + ".password")
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 || fi.Sys().(*syscall.Stat_t).Uid != uint32(os.Geteuid()) {
		t.Fatalf("password file mode %v uid %d", fi.Mode(), fi.Sys().(*syscall.Stat_t).Uid)
	}
	for _, p := range []string{dir + ".lock", dir + ".users", dir + ".log", filepath.Join(dir, "PG_VERSION")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("missing %s: %v", p, err)
		}
	}
	for _, p := range []string{dir + ".init", dir + ".owner", dir + ".detached"} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%s exists: %v", p, err)
		}
	}
	if got := mustQuery(t, c1, "towow", "select 1"); got != "1" {
		t.Fatalf("select 1 = %q", got)
	}
	settings := mustQuery(t, c1, "postgres", "select current_user, pg_encoding_to_char(encoding), datcollate, current_setting('fsync'), "+
		"current_setting('max_connections'), current_setting('shared_buffers'), current_setting('unix_socket_directories') "+
		"from pg_database where datname = current_database()")
	if settings != "towow|UTF8|C|on|200|128MB|" {
		t.Fatalf("settings = %q", settings)
	}
	mustQuery(t, c1, "towow", "create table survivor (v text); insert into survivor values ('kept')")
	bad := strings.Replace(c1.URL("towow"), c1.password, "wrong", 1)
	if out, err := exec.Command(filepath.Join(requireBinaries(t).dir, "psql"), "-Atc", "select 1", bad).CombinedOutput(); err == nil {
		t.Fatalf("wrong password accepted: %s", out)
	}
	assertRunning(t, dir, true, c1.Port())

	// A second Start, in the same process, attaches: a second user.
	begin = time.Now()
	c2 := startCluster(t, dir)
	t.Logf("attach: %v", time.Since(begin))
	if c2.Owned() || c2.Port() != c1.Port() || c2.URL("x") != c1.URL("x") {
		t.Fatalf("second Start: owned=%v port=%d, want attached on %d", c2.Owned(), c2.Port(), c1.Port())
	}
	if err := c2.Stop(ctx); err != nil {
		t.Fatalf("second user's Stop: %v", err)
	}
	assertRunning(t, dir, true, c1.Port())
	mustQuery(t, c1, "towow", "select 1")

	// The Cluster that started the server stops first: the server stays
	// up for the remaining user, whose Stop then stops it.
	c3 := startCluster(t, dir)
	if err := c1.Stop(ctx); err != nil {
		t.Fatalf("starter's Stop: %v", err)
	}
	assertRunning(t, dir, true, c3.Port())
	mustQuery(t, c3, "towow", "select 1")
	if err := c3.Stop(ctx); err != nil {
		t.Fatalf("last user's Stop: %v", err)
	}
	assertRunning(t, dir, false, 0)
	assertNoServerProcesses(t, dir)
	for _, c := range []*Cluster{c1, c2, c3} {
		if err := c.Stop(ctx); err != nil {
			t.Fatalf("repeated Stop: %v", err)
		}
	}

	// A restart reuses the data and the password.
	begin = time.Now()
	c4 := startCluster(t, dir)
	t.Logf("warm start: %v", time.Since(begin))
	if !c4.Owned() || c4.password != c1.password {
		t.Fatalf("restart: owned=%v, password changed=%v", c4.Owned(), c4.password != c1.password)
	}
	if got := mustQuery(t, c4, "towow", "select v from survivor"); got != "kept" {
		t.Fatalf("survivor = %q", got)
	}

	// The package-level Stop stops regardless of users; their Stop then
	// has nothing left to do.
	if err := Stop(ctx, dir); err != nil {
		t.Fatalf("Stop(dir): %v", err)
	}
	assertRunning(t, dir, false, 0)
	if err := Stop(ctx, dir); err != nil {
		t.Fatalf("Stop(dir) when stopped: %v", err)
	}
	if err := c4.Stop(ctx); err != nil {
		t.Fatalf("user's Stop after force stop: %v", err)
	}
	assertRunning(t, dir, false, 0)
}

func TestParallelStart(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)

	const n = 4
	clusters := make([]*Cluster, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { clusters[i], errs[i] = Start(ctx, Config{DataDir: dir}) })
	}
	wg.Wait()
	starters := 0
	for i, c := range clusters {
		if errs[i] != nil {
			t.Fatalf("Start %d: %v", i, errs[i])
		}
		if c.Port() != clusters[0].Port() {
			t.Fatalf("ports differ: %d vs %d", c.Port(), clusters[0].Port())
		}
		if c.Owned() {
			starters++
		}
	}
	if starters != 1 {
		t.Fatalf("%d Clusters started the server, want 1", starters)
	}
	mustQuery(t, clusters[0], "towow", "select 1")
	// Stop them concurrently too; only the last Stop stops the server.
	port := clusters[0].Port()
	for i := range n - 1 {
		wg.Go(func() { errs[i] = clusters[i].Stop(ctx) })
	}
	wg.Wait()
	for i := range n - 1 {
		if errs[i] != nil {
			t.Fatalf("Stop %d: %v", i, errs[i])
		}
	}
	assertRunning(t, dir, true, port)
	mustQuery(t, clusters[n-1], "towow", "select 1")
	if err := clusters[n-1].Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
	assertNoServerProcesses(t, dir)
}

func TestStalePostmasterPID(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)
	c := startCluster(t, dir)
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	acct, err := serverAccount(dir)
	if err != nil {
		t.Fatal(err)
	}

	// A live process of the server account that is not a postmaster, as
	// after pid reuse: postgres itself would refuse to start over it.
	sleeper := acct.command(ctx, dir, "/bin/sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() }()

	for _, tc := range []struct {
		name string
		pid  int
	}{
		{"dead pid", deadPID(t)},
		{"reused pid", sleeper.Process.Pid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pidFile := filepath.Join(dir, "postmaster.pid")
			content := fmt.Sprintf("%d\n%s\n%d\n%d\n\n127.0.0.1\n  1234567     12345\nready   \n", tc.pid, dir, time.Now().Unix()-60, 5432)
			if err := os.WriteFile(pidFile, []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := acct.chown(pidFile); err != nil {
				t.Fatal(err)
			}
			assertRunning(t, dir, false, 0)
			c := startCluster(t, dir)
			if !c.Owned() || c.Port() == 5432 {
				t.Fatalf("owned=%v port=%d", c.Owned(), c.Port())
			}
			mustQuery(t, c, "towow", "select 1")
			if err := c.Stop(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestHelperProcess is not a real test: TestOtherProcessUser runs the test
// binary with it to get a second process that starts the cluster and keeps
// it open until killed.
func TestHelperProcess(t *testing.T) {
	dir := os.Getenv("PGCLUSTER_HELPER_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	c, err := Start(testContext(t), Config{DataDir: dir})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("started", c.Port(), c.Owned())
	time.Sleep(time.Minute) // until killed
	os.Exit(0)
}

func TestOtherProcessUser(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)

	helper := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	helper.Env = append(os.Environ(), "PGCLUSTER_HELPER_DIR="+dir)
	stdout, err := helper.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	helper.Stderr = os.Stderr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = helper.Process.Kill(); _ = helper.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v", err)
	}
	var port int
	var owned bool
	if _, err := fmt.Sscanf(line, "started %d %t", &port, &owned); err != nil || !owned {
		t.Fatalf("helper said %q", line)
	}

	// The helper uses the server: we attach, and our Stop leaves it
	// running for the helper.
	c := startCluster(t, dir)
	if c.Owned() || c.Port() != port {
		t.Fatalf("owned=%v port=%d, want attached on %d", c.Owned(), c.Port(), port)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, true, port)

	// We attach again; the helper is SIGKILLed: the kernel drops its
	// shared lock, the server survives, and our Stop is the last user's.
	c = startCluster(t, dir)
	if c.Owned() || c.Port() != port {
		t.Fatalf("owned=%v port=%d, want attached on %d", c.Owned(), c.Port(), port)
	}
	if err := helper.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = helper.Wait()
	assertRunning(t, dir, true, port)
	mustQuery(t, c, "towow", "select 1")
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
	assertNoServerProcesses(t, dir)
}

func TestDetached(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)

	d, err := Start(ctx, Config{DataDir: dir, Detached: true})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Owned() {
		t.Fatal("detached Start did not start the server")
	}
	if _, err := os.Stat(dir + ".detached"); err != nil {
		t.Fatalf("no detached marker: %v", err)
	}
	port := d.Port()
	if err := d.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, true, port)

	// A plain user attaches, leaves the marker alone, and as the last user
	// still does not stop a detached server.
	c := startCluster(t, dir)
	if c.Owned() || c.Port() != port {
		t.Fatalf("owned=%v port=%d, want attached on %d", c.Owned(), c.Port(), port)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, true, port)
	if _, err := os.Stat(dir + ".detached"); err != nil {
		t.Fatalf("detached marker gone: %v", err)
	}

	// The force Stop stops it and removes the marker, even with a user.
	c = startCluster(t, dir)
	if err := Stop(ctx, dir); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
	assertNoServerProcesses(t, dir)
	if _, err := os.Stat(dir + ".detached"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("detached marker left after Stop(dir): %v", err)
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}

	// Without the marker, the last user's Stop stops the server again.
	c = startCluster(t, dir)
	if !c.Owned() {
		t.Fatal("Start after force stop did not start the server")
	}
	if err := c.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
}

// TestDetachIfStarted: attaching with DetachIfStarted (towow db url) to a
// server another user started changes nothing about who stops it: that
// user's Stop still stops it. Starting one with it marks it detached.
func TestDetachIfStarted(t *testing.T) {
	requireBinaries(t)
	dir := testDataDir(t)
	ctx := testContext(t)

	server := startCluster(t, dir) // towow serve, first
	if !server.Owned() {
		t.Fatal("the first Start did not start the server")
	}
	url, err := Start(ctx, Config{DataDir: dir, DetachIfStarted: true})
	if err != nil {
		t.Fatal(err)
	}
	if url.Owned() {
		t.Fatal("DetachIfStarted started a second server")
	}
	if _, err := os.Stat(dir + ".detached"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("attaching with DetachIfStarted marked the cluster detached: %v", err)
	}
	if err := url.Stop(ctx); err != nil { // towow db url exits
		t.Fatal(err)
	}
	assertRunning(t, dir, true, server.Port())
	if err := server.Stop(ctx); err != nil { // towow serve exits
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
	assertNoServerProcesses(t, dir)

	// With nothing running, it starts the server detached.
	url, err = Start(ctx, Config{DataDir: dir, DetachIfStarted: true})
	if err != nil {
		t.Fatal(err)
	}
	if !url.Owned() {
		t.Fatal("DetachIfStarted did not start a server when none ran")
	}
	if _, err := os.Stat(dir + ".detached"); err != nil {
		t.Fatalf("no detached marker: %v", err)
	}
	port := url.Port()
	if err := url.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, true, port)
	if err := Stop(ctx, dir); err != nil {
		t.Fatal(err)
	}
	assertRunning(t, dir, false, 0)
}
