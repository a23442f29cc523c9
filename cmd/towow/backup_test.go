package main

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/towow/towow/internal/pgcluster"
)

// runNegotiation submits the sample demand as the token's person and waits,
// up to a minute, for it to end; it returns the demand's id.
func runNegotiation(t *testing.T, s *server, token string) string {
	t.Helper()
	return runDemand(t, s, token, "我想在北京办一场AI主题聚会，需要场地和嘉宾")
}

// runDemand submits text as the token's person and waits, up to a minute,
// for it to end; it returns the demand's id.
func runDemand(t *testing.T, s *server, token, text string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"raw_input": text})
	resp, err := authRequest(http.MethodPost, s.url()+"/api/v1/demand/submit", token, string(body))
	if err != nil {
		t.Fatal(err)
	}
	var sub struct {
		DemandID string `json:"demand_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&sub)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || sub.DemandID == "" {
		t.Fatalf("submit: %d %+v", resp.StatusCode, sub)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		st := demandStatus(t, s.url(), token, sub.DemandID)
		if st == "completed" || st == "failed" {
			return sub.DemandID
		}
		if time.Now().After(deadline) {
			t.Fatalf("the negotiation did not end within a minute (%q); log:\n%s", st, s.log())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// demandStatus is a demand's status as its person reads it ("" when the
// read fails).
func demandStatus(t *testing.T, base, token, id string) string {
	t.Helper()
	resp, err := authRequest(http.MethodGet, base+"/api/v1/demands/"+id, token, "")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var d struct {
		Status string `json:"status"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&d)
	return d.Status
}

// databaseContents is, for every table and sequence of an embedded
// cluster's database, its row count and a checksum of its rows in order
// (sequences: their last value), read with nothing else running; and the
// log's last position.
func databaseContents(t *testing.T, pgDir string) (map[string]string, int64) {
	t.Helper()
	ctx := context.Background()
	c, err := pgcluster.Start(ctx, pgcluster.Config{DataDir: pgDir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop(ctx)
	conn, err := pgx.Connect(ctx, c.URL("towow"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT 'table', tablename FROM pg_tables WHERE schemaname = 'public'
		UNION ALL SELECT 'sequence', sequencename FROM pg_sequences WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	type rel struct{ Kind, Name string }
	rels, err := pgx.CollectRows(rows, pgx.RowToStructByPos[rel])
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rels {
		q := fmt.Sprintf(`SELECT count(*)::text || ' ' || coalesce(md5(string_agg(t::text, E'\n' ORDER BY t::text)), '') FROM %s t`, pgx.Identifier{r.Name}.Sanitize())
		if r.Kind == "sequence" {
			q = fmt.Sprintf(`SELECT last_value::text FROM %s`, pgx.Identifier{r.Name}.Sanitize())
		}
		var v string
		if err := conn.QueryRow(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s %s: %v", r.Kind, r.Name, err)
		}
		out[r.Kind+" "+r.Name] = v
	}
	var last int64
	if err := conn.QueryRow(ctx, `SELECT coalesce(max(global_position), 0) FROM events`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	return out, last
}

// TestBackupAndRestore: `towow backup` runs while a server serves; a backup
// restored with `towow restore` into a fresh data folder holds the same
// tables row for row (the event log, every read model and its cursor,
// River's queue) and sequences; a second restore into it is refused with
// nothing changed; a server started on it serves the old negotiation and
// runs a new one, whose events come after every restored position, and a
// client resuming the log from the last restored cursor reads exactly them.
func TestBackupAndRestore(t *testing.T) {
	dirA, dirB := traversableTempDir(t), traversableTempDir(t)
	pgA, pgB := filepath.Join(dirA, "pg"), filepath.Join(dirB, "pg")
	t.Cleanup(func() {
		_ = pgcluster.Stop(context.Background(), pgA)
		_ = pgcluster.Stop(context.Background(), pgB)
	})
	const admin = "backup-test-admin-token"
	envA, envB := []string{"TOWOW_DATA_DIR=" + dirA}, []string{"TOWOW_DATA_DIR=" + dirB, "TOWOW_ADMIN_TOKEN=" + admin}
	file := filepath.Join(t.TempDir(), "towow.dump")

	s := startServer(t, envA...)
	token := s.token(t, "u1")
	first := runNegotiation(t, s, token)
	if out, errOut, code := runTowow(t, envA, "backup", file); code != 0 || !strings.Contains(out, "backup written to") {
		t.Fatalf("towow backup while serving: %d %s %s", code, out, errOut)
	}
	s.stop(t)
	// The backup compared below is taken with nothing running, so that
	// both sides hold the same state.
	if out, errOut, code := runTowow(t, envA, "backup", file); code != 0 {
		t.Fatalf("towow backup: %d %s %s", code, out, errOut)
	}
	if _, err := os.Stat(file + ".partial"); !os.IsNotExist(err) {
		t.Fatalf("a partial file is left: %v", err)
	}
	// The columns' lz4 compression is not in the backup: a server built
	// without lz4 restores it too.
	pgRestore, err := pgcluster.ClientTool("pg_restore")
	if err != nil {
		t.Fatal(err)
	}
	script, err := exec.Command(pgRestore, "--file=-", file).Output()
	if err != nil || !strings.Contains(string(script), "CREATE TABLE public.events") {
		t.Fatalf("pg_restore --file=- %s: %v, %d bytes", file, err, len(script))
	}
	if strings.Contains(string(script), "SET COMPRESSION") {
		t.Error("the backup sets a column's compression method: a server without it could not restore it")
	}
	before, lastBefore := databaseContents(t, pgA)

	out, errOut, code := runTowow(t, envB, "restore", file)
	if code != 0 || !strings.Contains(out, "restored") {
		t.Fatalf("towow restore: %d %s %s", code, out, errOut)
	}
	after, lastAfter := databaseContents(t, pgB)
	if !maps.Equal(before, after) || lastAfter != lastBefore {
		for _, k := range slices.Sorted(maps.Keys(before)) {
			if before[k] != after[k] {
				t.Errorf("%s: %s before, %s restored", k, before[k], after[k])
			}
		}
		t.Fatalf("the restored database differs (last position %d before, %d restored)", lastBefore, lastAfter)
	}
	if _, errOut, code := runTowow(t, envB, "restore", file); code != 1 || !strings.Contains(errOut, "not empty") {
		t.Fatalf("a second restore into the same folder: %d %s, want refused", code, errOut)
	}
	if again, _ := databaseContents(t, pgB); !maps.Equal(before, again) {
		t.Fatal("the refused restore changed the database")
	}

	s = startServer(t, envB...) // its signing key was not restored: a token of its own
	token = s.token(t, "u1")
	resp, err := authRequest(http.MethodGet, s.url()+"/api/v1/demands/"+first, token, "")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the restored negotiation: %d", resp.StatusCode)
	}
	second := runNegotiation(t, s, token)
	resp, err = authRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/events?after=%d&limit=1000", s.url(), lastBefore), admin, "")
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Events []struct {
			Cursor   int64           `json:"cursor"`
			Metadata json.RawMessage `json:"metadata"`
		} `json:"events"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	ofSecond := 0
	for _, e := range page.Events {
		if e.Cursor <= lastBefore {
			t.Fatalf("position %d at or below the last restored one %d", e.Cursor, lastBefore)
		}
		if strings.Contains(string(e.Metadata), second) {
			ofSecond++
		}
	}
	if ofSecond == 0 {
		t.Fatalf("resuming from the last restored cursor %d: %d events, none of the new negotiation %s", lastBefore, len(page.Events), second)
	}
}
