package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	// pgCtlTimeout is pg_ctl's -t: seconds to wait for start or stop.
	pgCtlTimeout = "60"
	// maxPortAttempts bounds retries when the picked port gets taken
	// between picking it and the server binding it.
	maxPortAttempts = 5
	// logTailLines is how much of the server log failures show.
	logTailLines = 20
)

// pickPort returns a free loopback port; a variable for tests.
var pickPort = freePort

// freePort asks the kernel for a free port on 127.0.0.1 (never 5432).
func freePort() (int, error) {
	for range 10 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, fmt.Errorf("pick a free port: %w", err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		_ = l.Close()
		if port != 5432 {
			return port, nil
		}
	}
	return 0, errors.New("pick a free port: only 5432 offered")
}

// lastPort is the port recorded by the last start of l's cluster.
func lastPort(l layout) (int, bool) {
	b, err := os.ReadFile(l.port)
	if err != nil {
		return 0, false
	}
	port, err := strconv.Atoi(strings.TrimSpace(string(b)))
	return port, err == nil && port > 1024 && port < 65536 && port != 5432
}

// portFree reports whether nothing listens on 127.0.0.1:port.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}

// serverOptions are the postgres settings passed through pg_ctl -o. They
// are given at every start, so they also apply to older clusters.
func serverOptions(port int) string {
	return strings.Join([]string{
		"-c port=" + strconv.Itoa(port),
		"-c listen_addresses=127.0.0.1",
		"-c unix_socket_directories=''", // TCP only: socket path length never matters
		"-c max_connections=200",        // tests open many databases and pools
		"-c shared_buffers=128MB",
		"-c fsync=on", // an event store: keep durability even in development
	}, " ")
}

// startPostmaster starts the stopped cluster with pg_ctl on a free port,
// retrying on another port when the chosen one was taken in the meantime.
// It returns the port and the postmaster pid.
//
// pg_ctl runs to its end even when ctx is cancelled (its -t bounds it):
// killing it would not stop the postmaster it launched, only lose track of
// it. The caller checks ctx afterwards and stops the server if need be; a
// failed attempt may also leave a server running, which the caller stops.
func startPostmaster(ctx context.Context, l layout, a *account, bins binaries, logger *slog.Logger) (int, int, error) {
	for attempt := 1; ; attempt++ {
		// The port of the last start first, so that processes still holding
		// the cluster's URL (a server across towow db stop and start)
		// reconnect by themselves; another when it is taken.
		port, ok := lastPort(l)
		if !ok || attempt > 1 || !portFree(port) {
			var err error
			if port, err = pickPort(); err != nil {
				return 0, 0, err
			}
		}
		offset, err := prepareLog(l.log, a)
		if err != nil {
			return 0, 0, err
		}
		cmd := a.command(context.WithoutCancel(ctx), l.dataDir, bins.pgCtl,
			"-D", l.dataDir, "-w", "-t", pgCtlTimeout, "-l", l.log, "-o", serverOptions(port), "start")
		ownProcessGroup(cmd)
		out, runErr := cmd.CombinedOutput()
		if runErr == nil {
			pm, err := readPostmasterPID(l.dataDir)
			if err != nil {
				return 0, 0, fmt.Errorf("read postmaster.pid after start: %w", err)
			}
			if pm.port != 0 && pm.port != port {
				return 0, 0, fmt.Errorf("postgres started on port %d, expected %d", pm.port, port)
			}
			if err := writeFileAtomic(l.port, strconv.Itoa(port)+"\n", 0o644); err != nil {
				logger.WarnContext(ctx, "cannot record the port for the next start", "file", l.port, "err", err)
			}
			return port, pm.pid, nil
		}
		newLog := readFrom(l.log, offset)
		conflict := strings.Contains(newLog, "could not bind") || strings.Contains(newLog, "Address already in use") || !portFree(port)
		if conflict && attempt < maxPortAttempts && ctx.Err() == nil {
			logger.WarnContext(ctx, "postgres port taken, retrying with another", "port", port, "attempt", attempt)
			continue
		}
		return 0, 0, fmt.Errorf("pg_ctl start: %w%s%s", runErr, indent(strings.TrimSpace(string(out))), logExcerpt(l.log, newLog))
	}
}

// stopPostmaster stops the server of l.dataDir (fast mode: active sessions
// are disconnected, the shutdown checkpoint is written). Without binaries
// it falls back to what pg_ctl does: SIGINT, then wait for the pid file to
// go.
func stopPostmaster(ctx context.Context, l layout, a *account, bins binaries, haveBins bool, pm postmasterPID) error {
	if haveBins {
		cmd := a.command(ctx, l.dataDir, bins.pgCtl, "-D", l.dataDir, "-m", "fast", "-w", "-t", pgCtlTimeout, "stop")
		ownProcessGroup(cmd)
		out, err := cmd.CombinedOutput()
		if err == nil {
			return nil
		}
		if _, state, _ := inspect(l.dataDir); state != stateRunning {
			return nil // it went away anyway
		}
		return fmt.Errorf("pg_ctl stop: %w%s%s", err, indent(strings.TrimSpace(string(out))), logExcerpt(l.log, ""))
	}
	if err := syscall.Kill(pm.pid, syscall.SIGINT); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("signal postmaster %d: %w", pm.pid, err)
	}
	ctx, cancel := context.WithTimeout(ctx, readyTimeout)
	defer cancel()
	for {
		if _, state, _ := inspect(l.dataDir); state != stateRunning {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for postmaster %d to stop: %w", pm.pid, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// ownProcessGroup makes cmd the leader of a new process group. A Ctrl-C
// at the terminal signals the whole foreground process group: pg_ctl, and
// the postmaster it launches, must not get it behind towow's back (towow
// handles the signal and decides whether the server stops).
func ownProcessGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// prepareLog makes sure the log file exists and is writable by the server
// account (pg_ctl opens it as that account, and the directory holding it
// may not be writable for it), and returns its current size.
func prepareLog(path string, a *account) (int64, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
	if err != nil {
		return 0, fmt.Errorf("create log file: %w", err)
	}
	fi, err := f.Stat()
	_ = f.Close()
	if err != nil {
		return 0, fmt.Errorf("stat log file: %w", err)
	}
	if err := a.chown(path); err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// readFrom returns the content of path from offset on ("" on error).
func readFrom(path string, offset int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return string(b)
}

// logExcerpt formats the last lines of the server log for an error: those
// of recent (the part written by this attempt) or else of the whole file.
func logExcerpt(path, recent string) string {
	if strings.TrimSpace(recent) == "" {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		recent = string(b)
	}
	if strings.TrimSpace(recent) == "" {
		return ""
	}
	return "\nlast lines of " + path + ":" + indent(tailLines(recent, logTailLines))
}
