package pgcluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// requireBinaries skips the test when PostgreSQL is not installed.
func requireBinaries(t *testing.T) binaries {
	t.Helper()
	b, err := findBinaries("", "")
	if err != nil {
		t.Skipf("no PostgreSQL binaries: %v", err)
	}
	return b
}

// testDataDir returns <tmp>/pg under a fresh directory of mode 0755 (the
// server account must traverse it when tests run as root, which rules out
// t.TempDir's 0700 directories). The cluster is force-stopped and the
// directory removed at the end of the test.
func testDataDir(t *testing.T) string {
	t.Helper()
	base, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(base, "pg")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := Stop(ctx, dir); err != nil {
			t.Errorf("cleanup stop: %v", err)
		}
		_ = os.RemoveAll(base)
	})
	return dir
}

// startCluster calls Start and fails the test on error.
func startCluster(t *testing.T, dir string) *Cluster {
	t.Helper()
	c, err := Start(testContext(t), Config{DataDir: dir})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// psql runs sql on database through the psql client and the cluster's URL.
func psql(t *testing.T, c *Cluster, database, sql string) (string, error) {
	t.Helper()
	bins := requireBinaries(t)
	client := filepath.Join(bins.dir, "psql")
	if !isExecutable(client) {
		t.Skipf("no psql next to %s", bins.initdb)
	}
	cmd := exec.Command(client, "-X", "-v", "ON_ERROR_STOP=1", "-Atc", sql, c.URL(database))
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=5")
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// mustQuery is psql that fails the test on error.
func mustQuery(t *testing.T, c *Cluster, database, sql string) string {
	t.Helper()
	out, err := psql(t, c, database, sql)
	if err != nil {
		t.Fatalf("psql %q on %s: %v\n%s", sql, database, err, out)
	}
	return out
}

// assertRunning checks Status for dir.
func assertRunning(t *testing.T, dir string, want bool, wantPort int) {
	t.Helper()
	running, port, err := Status(dir)
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if running != want {
		t.Fatalf("Status running = %v, want %v", running, want)
	}
	if want && port != wantPort {
		t.Fatalf("Status port = %d, want %d", port, wantPort)
	}
}

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if processAlive(pid) {
		t.Fatalf("pid %d of an exited process is alive", pid)
	}
	return pid
}

// assertNoServerProcesses checks that no process (postmaster or backend)
// works in dir, whatever postmaster.pid says: each has its data directory
// as working directory. Processes of other users may be invisible when the
// tests do not run as root.
func assertNoServerProcesses(t *testing.T, dir string) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A server's last child may still be exiting (its command line already
	// gone) when the stop returns on a loaded machine: it has a few seconds
	// to be gone, a server left running never is.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		pid, cmdline, ok := serverProcess(t, abs)
		if !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d still runs in %s: %s", pid, dir, cmdline)
		}
	}
}

// serverProcess is a live process whose working directory is dir, if any.
func serverProcess(t *testing.T, dir string) (pid int, cmdline string, ok bool) {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
		if err == nil && sameDir(cwd, dir) && processAlive(pid) {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			return pid, strings.ReplaceAll(string(b), "\x00", " "), true
		}
	}
	return 0, "", false
}
