package main

import (
	"bytes"
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"

	"github.com/towow/towow/internal/dbtest"
)

// runBin runs the built towow with args and env (added to the test's
// environment without towow's variables) and returns its output and exit
// code.
func runBin(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(towowBin, args...)
	cmd.Env = append(cleanEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// oneLine says whether s is one line (its final newline aside).
func oneLine(s string) bool {
	s = strings.TrimSuffix(s, "\n")
	return s != "" && !strings.Contains(s, "\n")
}

// TestTokenCommand: `towow token` mints a local-mode user token the
// server accepts (same TOWOW_DATA_DIR), and refuses, in one readable line,
// a missing or impossible name.
func TestTokenCommand(t *testing.T) {
	dataDir := t.TempDir()
	env := []string{"TOWOW_DATA_DIR=" + dataDir}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no --user", []string{"token"}, "towow: usage: towow token --user NAME"},
		{"a name with a space", []string{"token", "--user", "a b"}, `towow: usage: user "a b": a name is letters, digits`},
		{"the operator's name", []string{"token", "--user", "admin"}, `towow: usage: user "admin": the name admin is the operator's`},
		{"an argument", []string{"token", "--user", "alice", "extra"}, "towow: usage: towow token --user NAME"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runBin(t, env, tc.args...)
			if code != 2 || stdout != "" || !oneLine(stderr) || !strings.HasPrefix(stderr, tc.want) {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s\nwant exit 2 and one line starting %q", code, stdout, stderr, tc.want)
			}
		})
	}
	stdout, stderr, code := runBin(t, env, "token", "--user", "alice")
	if code != 0 || stderr != "" || !oneLine(stdout) || strings.Count(stdout, ".") != 2 {
		t.Fatalf("towow token --user alice: exit %d, stdout %q, stderr %q; want one JWT line", code, stdout, stderr)
	}
	token := strings.TrimSpace(stdout)

	// The server of that data folder takes it: alice is signed in.
	s := startServer(t, "DATABASE_URL="+dbtest.NewURL(t), "TOWOW_DATA_DIR="+dataDir)
	base := "http://" + s.addr
	var me struct {
		SignedIn bool   `json:"signed_in"`
		Kind     string `json:"kind"`
		UserID   string `json:"user_id"`
		Mode     string `json:"mode"`
	}
	getJSONAuth(t, base+"/auth/me", token, &me)
	if !me.SignedIn || me.Kind != "user" || me.UserID != "alice" || me.Mode != "local" {
		t.Fatalf("GET /auth/me with alice's token: %+v", me)
	}
	callJSON(t, http.MethodGet, base+"/api/v1/demands", token, nil, http.StatusOK, nil)
	callJSON(t, http.MethodGet, base+"/api/v1/demands", "", nil, http.StatusUnauthorized, nil)
	// Another data folder's key signs tokens this server refuses.
	other := mintToken(t, t.TempDir(), "alice")
	callJSON(t, http.MethodGet, base+"/api/v1/demands", other, nil, http.StatusUnauthorized, nil)
	if !strings.Contains(s.log(), "local mode") {
		t.Errorf("no local mode warning in the server's log:\n%s", s.log())
	}
	s.stop(t)
}

// TestServeLocalModeLoopbackOnly: in local mode (anyone may sign in as
// any name) `towow serve` refuses an address other machines can reach, in
// one readable line, unless TOWOW_ALLOW_REMOTE=1.
func TestServeLocalModeLoopbackOnly(t *testing.T) {
	dataDir := t.TempDir()
	stdout, stderr, code := runBin(t, []string{"TOWOW_DATA_DIR=" + dataDir, "TOWOW_ADDR=0.0.0.0:0"}, "serve")
	if code != 2 || stdout != "" || !oneLine(stderr) ||
		!strings.HasPrefix(stderr, "towow: usage: TOWOW_ADDR=0.0.0.0:0 is reachable from other machines") ||
		!strings.Contains(stderr, "TOWOW_ALLOW_REMOTE=1") {
		t.Fatalf("serve on 0.0.0.0 in local mode: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	_, stderr, code = runBin(t, []string{"TOWOW_DATA_DIR=" + dataDir, "TOWOW_ADDR=0.0.0.0:0", "TOWOW_ALLOW_REMOTE=maybe"}, "serve")
	if code != 1 || !oneLine(stderr) || !strings.HasPrefix(stderr, `towow: TOWOW_ALLOW_REMOTE="maybe": want 1 or 0`) {
		t.Fatalf("TOWOW_ALLOW_REMOTE=maybe: exit %d, stderr:\n%s", code, stderr)
	}

	// With TOWOW_ALLOW_REMOTE=1 it starts there, and warns.
	port := freeAddr(t)[len("127.0.0.1:"):]
	s, taken := tryServer(t, net.JoinHostPort("0.0.0.0", port), "DATABASE_URL="+dbtest.NewURL(t), "TOWOW_DATA_DIR="+dataDir, "TOWOW_ALLOW_REMOTE=1")
	if taken {
		t.Skipf("port %s was taken meanwhile", port)
	}
	if !strings.Contains(s.log(), "local mode") {
		t.Errorf("no local mode warning in the log:\n%s", s.log())
	}
	s.stop(t)
}
