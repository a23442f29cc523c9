package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/pgcluster"
	"github.com/towow/towow/migrations"
)

var towowBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "towow-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	towowBin = filepath.Join(dir, "towow")
	if out, err := exec.Command("go", "build", "-o", towowBin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build towow: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// server is a running `towow serve` process.
type server struct {
	cmd  *exec.Cmd
	addr string
	// scheme is "https" under TOWOW_TLS_CERT, else "" (http).
	scheme string
	// dataDir is its TOWOW_DATA_DIR: its signing key is there (token).
	dataDir string
	mu      sync.Mutex
	stderr  bytes.Buffer
	done    chan error
}

// url is the server's base URL.
func (s *server) url() string {
	if s.scheme == "" {
		return "http://" + s.addr
	}
	return s.scheme + "://" + s.addr
}

// token mints a user token the server accepts, as a person does: `towow
// token --user name` with the server's TOWOW_DATA_DIR.
func (s *server) token(t *testing.T, name string) string {
	t.Helper()
	return mintToken(t, s.dataDir, name)
}

// mintToken runs `towow token --user name` on dataDir's signing key and
// returns the one line it prints.
func mintToken(t *testing.T, dataDir, name string) string {
	t.Helper()
	cmd := exec.Command(towowBin, "token", "--user", name)
	cmd.Env = append(cleanEnv(), "TOWOW_DATA_DIR="+dataDir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("towow token --user %s: %v\n%s", name, err, stderr.String())
	}
	tok := strings.TrimSpace(stdout.String())
	if tok == "" || strings.Contains(tok, "\n") {
		t.Fatalf("towow token --user %s printed %q", name, stdout.String())
	}
	return tok
}

// userTokens mints user tokens with dataDir's signing key in this
// process (for many users; the key is the server's, already written).
func userTokens(t *testing.T, dataDir string) func(name string) string {
	t.Helper()
	signer, err := identity.LoadOrCreateSigner(filepath.Join(dataDir, identity.SigningKeyFile))
	if err != nil {
		t.Fatal(err)
	}
	people := identity.NewLocalWith(signer)
	return func(name string) string {
		t.Helper()
		tok, err := people.MintLocalToken(name, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
}

// authRequest sends a request with a bearer token (none when token is
// empty) and a JSON body (none when body is empty).
func authRequest(method, url, token, body string) (*http.Response, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return nil, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return http.DefaultClient.Do(req)
}

// testDataDirs holds each test's default TOWOW_DATA_DIR for the servers it
// starts without one (a restarted server keeps its signing key, so the
// tokens and sessions it signed stay valid).
var testDataDirs sync.Map // *testing.T → string

func testDataDir(t *testing.T) string {
	t.Helper()
	if d, ok := testDataDirs.Load(t); ok {
		return d.(string)
	}
	d, loaded := testDataDirs.LoadOrStore(t, t.TempDir())
	if !loaded {
		t.Cleanup(func() { testDataDirs.Delete(t) })
	}
	return d.(string)
}

// envValue is the value of name in env ("" when unset).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}

func (s *server) log() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stderr.String()
}

// startServer runs `towow serve` with env (plus TOWOW_ADDR) and waits
// until /healthz answers 200. The address is a free port; when another
// process takes it between the pick and the bind (an outgoing connection's
// port, say), the server is started again on another one.
func startServer(t *testing.T, env ...string) *server {
	t.Helper()
	for attempt := 1; ; attempt++ {
		s, taken := tryServer(t, freeAddr(t), env...)
		if !taken {
			return s
		}
		if attempt == 5 {
			t.Fatalf("no free port after %d tries; log:\n%s", attempt, s.log())
		}
	}
}

// startServerAt is startServer on a given address (a restarted server).
func startServerAt(t *testing.T, addr string, env ...string) *server {
	t.Helper()
	s, taken := tryServer(t, addr, env...)
	if taken {
		t.Fatalf("address %s is taken; log:\n%s", addr, s.log())
	}
	return s
}

// tryServer starts `towow serve` on addr and waits until it is healthy;
// taken reports that it exited because the address was in use.
func tryServer(t *testing.T, addr string, env ...string) (s *server, taken bool) {
	t.Helper()
	s = &server{addr: addr, done: make(chan error, 1), dataDir: envValue(env, "TOWOW_DATA_DIR")}
	if s.dataDir == "" {
		s.dataDir = testDataDir(t)
		env = append([]string{"TOWOW_DATA_DIR=" + s.dataDir}, env...)
	}
	s.cmd = exec.Command(towowBin, "serve")
	s.cmd.Env = append(cleanEnv(), append(env, "TOWOW_ADDR="+s.addr)...)
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			s.mu.Lock()
			s.stderr.WriteString(sc.Text() + "\n")
			s.mu.Unlock()
		}
		s.done <- s.cmd.Wait()
	}()
	t.Cleanup(func() {
		if s.cmd.ProcessState == nil {
			_ = s.cmd.Process.Kill()
			<-s.done
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	health := http.Get
	if envValue(env, "TOWOW_TLS_CERT") != "" {
		// Only whether it answers: the HTTPS tests check the certificate.
		insecure := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
		s.scheme, health = "https", insecure.Get
	}
	for {
		resp, err := health(s.url() + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, false
			}
		}
		select {
		case err := <-s.done: // it exited before it was healthy
			if strings.Contains(s.log(), "address already in use") {
				return s, true
			}
			t.Fatalf("server exited before it was healthy: %v; log:\n%s", err, s.log())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not healthy within 30s; log:\n%s", s.log())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (s *server) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v; log:\n%s", err, s.log())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no exit within 20s of SIGTERM")
	}
}

// cleanEnv is the test's environment without towow's variables.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "DATABASE_URL=") || strings.HasPrefix(kv, "TOWOW_") || strings.HasPrefix(kv, "OTEL_") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func TestServeHealthzAndOpenAPI(t *testing.T) {
	url := dbtest.NewURL(t)
	s := startServer(t, "DATABASE_URL="+url)
	if !strings.Contains(s.log(), `msg="towow listening" url=http://`+s.addr) {
		t.Fatalf("no listening line with the URL in:\n%s", s.log())
	}
	for path, want := range map[string]string{"/healthz": `"status":"ok"`, "/openapi.json": `"openapi":"3.1.0"`} {
		resp, err := http.Get("http://" + s.addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), want) {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
	}
	// Ready once the read models caught up with the 100 profile events.
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get("http://" + s.addr + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == 200 && strings.Contains(string(body), `"streams":0`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz: %d %s", resp.StatusCode, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.stop(t)
}

// TestServeConcurrentStarts starts two servers on one fresh, unmigrated
// database at the same moment: both migrate safely and come up.
func TestServeConcurrentStarts(t *testing.T) {
	url := freshEmptyDatabase(t)
	var wg sync.WaitGroup
	servers := make([]*server, 3)
	for i := range servers {
		wg.Add(1)
		go func() { defer wg.Done(); servers[i] = startServer(t, "DATABASE_URL="+url) }()
	}
	wg.Wait()
	applied := 0
	for _, s := range servers {
		applied += strings.Count(s.log(), `msg="migration applied"`)
		s.stop(t)
	}
	if applied != migrations.Count() {
		t.Fatalf("%d migrations applied across the servers, want each of the %d once", applied, migrations.Count())
	}
}

// TestServeEmbeddedDatabase runs serve with no DATABASE_URL: it starts its
// own cluster, reuses it on the next start, stops it on SIGTERM, and copes
// with a SIGKILLed predecessor.
func TestServeEmbeddedDatabase(t *testing.T) {
	dataDir := traversableTempDir(t)
	env := []string{"TOWOW_DATA_DIR=" + dataDir}
	pgDir := filepath.Join(dataDir, "pg")
	t.Cleanup(func() { _ = pgcluster.Stop(context.Background(), pgDir) })

	start := time.Now()
	s := startServer(t, env...)
	t.Logf("cold start (initdb + start + migrate): %v", time.Since(start))
	if running, port, _ := pgcluster.Status(pgDir); !running || port == 5432 {
		t.Fatalf("embedded cluster running=%v port=%d", running, port)
	}
	s.stop(t)
	if running, _, _ := pgcluster.Status(pgDir); running {
		t.Fatal("embedded cluster still running after SIGTERM")
	}

	start = time.Now()
	s = startServer(t, env...)
	t.Logf("warm start: %v", time.Since(start))
	if strings.Contains(s.log(), "initialising") {
		t.Fatalf("second start initialised a new cluster:\n%s", s.log())
	}
	// Two servers share the cluster: when the one that started it exits,
	// the other keeps working.
	s2 := startServer(t, env...)
	s.stop(t)
	resp, err := http.Get("http://" + s2.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("second server unhealthy (%d) after the first exited", resp.StatusCode)
	}
	s = s2
	// A SIGKILLed server leaves its cluster running (the kernel drops its
	// use of it); the next server is then its last user and stops it on exit.
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-s.done
	if running, _, _ := pgcluster.Status(pgDir); !running {
		t.Fatal("cluster should outlive a SIGKILLed server")
	}
	s = startServer(t, env...)
	s.stop(t)
	if running, _, _ := pgcluster.Status(pgDir); running {
		t.Fatal("cluster still running after its last user's SIGTERM")
	}
}

func TestCommandErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		env  []string
		code int
		want string
	}{
		{"unreachable database", []string{"serve"}, []string{"DATABASE_URL=postgres://towow:secret@127.0.0.1:1/towow?connect_timeout=2"}, 1, "towow: database postgres://towow:xxxxx@127.0.0.1:1/towow?connect_timeout=2 unreachable"},
		{"malformed database url", []string{"migrate", "status"}, []string{"DATABASE_URL=postgres://[::1"}, 1, "towow: invalid database url"},
		{"bad log level", []string{"serve"}, []string{"TOWOW_LOG_LEVEL=loud"}, 1, `towow: TOWOW_LOG_LEVEL="loud"`},
		{"bad cors origin", []string{"serve"}, []string{"CORS_ORIGINS=http://ok.example, localhost:5173"}, 1, `towow: CORS_ORIGINS: "localhost:5173" is not an origin`},
		{"bad trace sampler", []string{"serve"}, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_TRACES_SAMPLER=sometimes"}, 1, `towow: OTEL_TRACES_SAMPLER="sometimes": want one of always_on`},
		{"short admin token", []string{"serve"}, []string{"TOWOW_ADMIN_TOKEN=short"}, 1, "towow: TOWOW_ADMIN_TOKEN: want at least 16 characters and no white space"},
		{"unknown command", []string{"frobnicate"}, nil, 2, `towow: usage: unknown command "frobnicate"`},
		{"migrate without direction", []string{"migrate"}, nil, 2, "towow: usage: towow migrate up|down|status"},
		{"serve with arguments", []string{"serve", "extra"}, nil, 2, "towow: usage: towow serve takes no arguments"},
		{"mcp with arguments", []string{"mcp", "extra"}, nil, 2, "towow: usage: towow mcp takes no arguments but --server URL"},
		{"mcp bad server", []string{"mcp", "--server", "localhost:8080"}, nil, 2, `towow: usage: --server "localhost:8080" is not an http(s) URL`},
		{"bench bad writers", []string{"bench", "append", "--writers", "0"}, nil, 2, "towow: usage: --writers"},
		{"projections without verb", []string{"projections"}, nil, 2, "towow: usage: towow projections rebuild [--name streams|demands|channels|llm_calls|agents|quality|workflows]"},
		{"projections bad name", []string{"projections", "rebuild", "--name", "offers"}, nil, 2, `towow: usage: --name "offers": want one of streams, demands, channels`},
		{"bench sse bad follow", []string{"bench", "sse", "-follow", "everything"}, nil, 2, "towow: usage: -follow must be all or demand"},
		{"bench sse bad reader", []string{"bench", "sse", "-reader", "curl"}, nil, 2, "towow: usage: -reader must be poll or http"},
		{"bench sse bad latency", []string{"bench", "sse", "-llm-latency", "-1s"}, nil, 2, "towow: usage: -llm-latency must be at least 0 and under 2/3 of LLM_TIMEOUT (10s)"},
		{"bench sse latency over the timeout", []string{"bench", "sse", "-llm-latency", "7s"}, nil, 2, "towow: usage: -llm-latency must be at least 0 and under 2/3 of LLM_TIMEOUT (10s)"},
		{"bench negotiate latency over the timeout", []string{"bench", "negotiate", "-llm-latency", "10s"}, nil, 2, "towow: usage: -llm-latency must be at least 0 and under LLM_TIMEOUT (10s)"},
		{"bench scale sizes not ascending", []string{"bench", "scale", "-sizes", "1000000,100000"}, nil, 2, "towow: usage: -sizes must be ascending numbers of events from 1 to 10000000"},
		{"bench scale over ten million", []string{"bench", "scale", "-sizes", "20000000"}, nil, 2, "towow: usage: -sizes must be ascending numbers of events from 1 to 10000000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(towowBin, tc.args...)
			// A data folder of its own: serve writes its signing key there
			// before it reaches the database.
			cmd.Env = append(cleanEnv(), append([]string{"TOWOW_DATA_DIR=" + t.TempDir()}, tc.env...)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimRight(stderr.String(), "\n"), "\n")
			if code != tc.code || len(lines) != 1 || !strings.HasPrefix(lines[0], tc.want) {
				t.Fatalf("exit %d, stderr:\n%s\nwant exit %d and one line starting %q", code, stderr.String(), tc.code, tc.want)
			}
			if strings.Contains(stderr.String(), "secret") {
				t.Fatal("the password leaked into the error")
			}
		})
	}
}

func TestMigrateCommands(t *testing.T) {
	url := freshEmptyDatabase(t)
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return url
		}
		return ""
	}
	// status maps "component version" to "applied" or "pending".
	status := func() map[string]string {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"migrate", "status"}, env, &out, &errb); code != 0 {
			t.Fatalf("status: exit %d: %s", code, errb.String())
		}
		m := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
			f := strings.Fields(line)
			m[f[0]+" "+f[1]] = f[2]
		}
		return m
	}
	step := func(dir string) {
		var out, errb bytes.Buffer
		if code := run(context.Background(), []string{"migrate", dir}, env, &out, &errb); code != 0 {
			t.Fatalf("migrate %s: exit %d: %s", dir, code, errb.String())
		}
	}
	if st := status(); st["towow 1"] != "pending" || st["river 1"] != "pending" {
		t.Fatalf("fresh database status: %v", st)
	}
	step("up")
	st := status()
	if len(st) != migrations.Count()+8 {
		t.Fatalf("status lists %d migrations, want %d towow + 8 river: %v", len(st), migrations.Count(), st)
	}
	for k, v := range st {
		if v != "applied" {
			t.Fatalf("after up %s is %s", k, v)
		}
	}
	step("down") // rolls back the newest towow migration only
	last := fmt.Sprintf("towow %d", migrations.Count())
	if st := status(); st[last] != "pending" || st["river 8"] != "applied" {
		t.Fatalf("after down (%s pending, river must stay): %v", last, st)
	}
	step("up")
}

func TestHelpListsEveryVariable(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, func(string) string { return "" }, &out, io.Discard); code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, v := range envVars {
		if !strings.Contains(out.String(), v.Name) || !strings.Contains(out.String(), v.Default) {
			t.Errorf("--help lacks %s (default %s)", v.Name, v.Default)
		}
	}
}

// TestReadmeConfigTable keeps the configuration table of docs/operations.md
// equal to envVars: same names, same order, same defaults.
func TestReadmeConfigTable(t *testing.T) {
	b, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	inTable := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "| Variable | Default |") {
			inTable = true
			continue
		}
		if inTable {
			if !strings.HasPrefix(line, "|") {
				break
			}
			cells := strings.Split(line, "|")
			if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
				continue
			}
			rows = append(rows, [2]string{strings.Trim(strings.TrimSpace(cells[1]), "`"), strings.Trim(strings.TrimSpace(cells[2]), "`")})
		}
	}
	if len(rows) != len(envVars) {
		t.Fatalf("the configuration table of docs/operations.md has %d rows, envVars has %d", len(rows), len(envVars))
	}
	for i, v := range envVars {
		if rows[i][0] != v.Name || rows[i][1] != v.Default {
			t.Errorf("configuration row %d is %q = %q, code says %q = %q", i, rows[i][0], rows[i][1], v.Name, v.Default)
		}
	}
}

// freshEmptyDatabase creates a database with no schema at all.
func freshEmptyDatabase(t *testing.T) string {
	t.Helper()
	pool := dbtest.New(t)
	name := fmt.Sprintf("towow_cmd_empty_%d", time.Now().UnixNano())
	ctx := context.Background()
	if _, err := pool.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = pool.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	cfg := pool.Config().ConnConfig
	return fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Password, cfg.Host, cfg.Port, name)
}

// traversableTempDir is a temp dir the postgres system user can reach
// (t.TempDir's parents are root-only 0700).
func traversableTempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "towow-data-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
