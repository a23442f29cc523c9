package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// idleSettle is how long the server's memory is watched after the idle
// followers leave: Go hands freed pages back to the system in the
// background, not at once.
const idleSettle = 10 * time.Second

// IdleMemory is what idle followers cost the server: its resident memory
// (RSS, everything the process holds: heap, stacks, runtime) and its
// goroutines before they connect, while all are connected, and after they
// left. The followers live in another process and reach the server over
// real TCP connections, so nothing of the client side is counted.
type IdleMemory struct {
	Clients                          int
	RSSBefore, RSSWith               uint64
	RSSAfter                         uint64 // idleSettle after the last one left
	GoroutinesBefore, GoroutinesWith int
	GoroutinesAfter                  int
}

// PerClient is the RSS growth per connected follower, in bytes.
func (m IdleMemory) PerClient() float64 {
	if m.Clients == 0 {
		return 0
	}
	return (float64(m.RSSWith) - float64(m.RSSBefore)) / float64(m.Clients)
}

// MeasureIdle starts the child process argv (a `towow bench sse-clients`),
// which reads the bearer token from the first line of its standard input
// (not its command line, where ps would show it), opens n idle streams
// and holds them until its standard input closes, and measures this
// process's memory around it. This process must be the server.
func MeasureIdle(ctx context.Context, argv []string, token string, n int, timeout time.Duration) (IdleMemory, error) {
	m := IdleMemory{Clients: n}
	var err error
	runtime.GC()
	if m.RSSBefore, err = residentBytes(); err != nil {
		return m, err
	}
	m.GoroutinesBefore = runtime.NumGoroutine()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, argv[0], argv[1:]...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return m, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return m, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return m, fmt.Errorf("start the idle followers: %w", err)
	}
	if _, err := io.WriteString(stdin, token+"\n"); err != nil {
		_ = cmd.Wait()
		return m, fmt.Errorf("the idle followers' token: %w", err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "connected" {
		_ = stdin.Close()
		_ = cmd.Wait()
		return m, fmt.Errorf("the idle followers did not connect: %q %v: %s", line, err, strings.TrimSpace(stderr.String()))
	}
	time.Sleep(time.Second) // the server side settles (handshakes, first heartbeat timers)
	runtime.GC()
	if m.RSSWith, err = residentBytes(); err != nil {
		return m, err
	}
	m.GoroutinesWith = runtime.NumGoroutine()
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		return m, fmt.Errorf("the idle followers: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	// Each stream's goroutine returns once its write or read fails; then
	// the memory settles.
	deadline := time.Now().Add(idleSettle)
	for time.Now().Before(deadline) {
		time.Sleep(500 * time.Millisecond)
		runtime.GC()
	}
	if m.RSSAfter, err = residentBytes(); err != nil {
		return m, err
	}
	m.GoroutinesAfter = runtime.NumGoroutine()
	return m, nil
}

// HoldIdle reads a bearer token from the first line of in, opens n streams
// on url carrying it, prints "connected" to out once every one has its
// opening line, and holds them until in closes (the side of MeasureIdle
// that runs in a child process).
func HoldIdle(ctx context.Context, url string, n int, timeout time.Duration, in io.Reader, out io.Writer) error {
	br := bufio.NewReader(in)
	token, err := br.ReadString('\n')
	if err != nil {
		return fmt.Errorf("read the token from standard input: %w", err)
	}
	rd, err := newReader(ReaderPoll, n, strings.TrimSpace(token))
	if err != nil {
		return err
	}
	defer rd.close()
	fl, err := connect(ctx, rd, url, n, &stamps{}, timeout)
	if err != nil {
		return err
	}
	defer fl.close()
	if _, err := fmt.Fprintln(out, "connected"); err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, br) // until the parent closes it
	return nil
}

// residentBytes is this process's resident set size (VmRSS, Linux).
func residentBytes() (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("resident memory: %w", err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("resident memory: %q: %w", line, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("resident memory: no VmRSS in /proc/self/status")
}
