package pgcluster

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// postmasterPID is the content of <dir>/postmaster.pid that matters here.
type postmasterPID struct {
	pid    int    // line 1; negative for a single-user backend
	port   int    // line 4
	status string // line 8: starting, ready, stopping or standby
}

// serverState classifies a data directory.
type serverState int

const (
	stateStopped serverState = iota // no postmaster.pid
	stateRunning                    // a live postmaster serves the directory
	stateStale                      // postmaster.pid left by a dead server
)

// readPostmasterPID parses dataDir/postmaster.pid.
func readPostmasterPID(dataDir string) (postmasterPID, error) {
	b, err := os.ReadFile(filepath.Join(dataDir, "postmaster.pid"))
	if err != nil {
		return postmasterPID{}, err
	}
	lines := strings.Split(string(b), "\n")
	var pm postmasterPID
	if pm.pid, err = strconv.Atoi(strings.TrimSpace(lines[0])); err != nil {
		return postmasterPID{}, fmt.Errorf("parse %s/postmaster.pid: bad pid %q", dataDir, lines[0])
	}
	if len(lines) > 3 {
		pm.port, _ = strconv.Atoi(strings.TrimSpace(lines[3]))
	}
	if len(lines) > 7 {
		pm.status = strings.TrimSpace(lines[7])
	}
	return pm, nil
}

// inspect reports whether a postmaster serves dataDir. A postmaster.pid is
// stale only when its process is certainly gone or certainly another
// program (pid reuse, detected through /proc/<pid>/cwd, which a postmaster
// sets to its data directory); when in doubt the server counts as running,
// which is the safe side. The program must also be postgres when
// /proc/<pid>/exe is readable.
func inspect(dataDir string) (postmasterPID, serverState, error) {
	pm, err := readPostmasterPID(dataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return pm, stateStopped, nil
	}
	if err != nil {
		// A torn or empty file from a crash mid-write: postgres itself
		// treats an empty lock file as stale.
		if b, rerr := os.ReadFile(filepath.Join(dataDir, "postmaster.pid")); rerr == nil && len(strings.TrimSpace(string(b))) == 0 {
			return pm, stateStale, nil
		}
		return pm, stateStopped, err
	}
	if pm.pid < 0 {
		if processAlive(-pm.pid) {
			return pm, stateStopped, fmt.Errorf("cluster %s is in use by a single-user postgres process (pid %d)", dataDir, -pm.pid)
		}
		return pm, stateStale, nil
	}
	if pm.pid == 0 || !processAlive(pm.pid) {
		return pm, stateStale, nil
	}
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pm.pid))
	if err != nil {
		return pm, stateRunning, nil // cannot tell: assume it is ours
	}
	if !sameDir(cwd, dataDir) {
		return pm, stateStale, nil
	}
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pm.pid)); err == nil {
		if name := filepath.Base(strings.TrimSuffix(exe, " (deleted)")); name != "postgres" && name != "postmaster" {
			return pm, stateStale, nil
		}
	}
	return pm, stateRunning, nil
}

// sameDir compares two directory paths after resolving symbolic links.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	return errA == nil && errB == nil && ra == rb
}

// processAlive reports whether pid names a live (non-zombie) process.
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if err := syscall.Kill(pid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		if f := statFields(string(b)); len(f) > 0 && f[0] == "Z" {
			return false // exited, waiting to be reaped
		}
	}
	return true
}

// statFields returns the fields of /proc/<pid>/stat after the command name,
// starting with field 3 (state).
func statFields(stat string) []string {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(stat[i+1:])
}

// writeFileAtomic writes content to a temporary file and renames it over path.
func writeFileAtomic(path, content string, perm os.FileMode) error {
	tmp := fmt.Sprintf("%s.tmp%d", path, os.Getpid())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	_, err = f.WriteString(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
