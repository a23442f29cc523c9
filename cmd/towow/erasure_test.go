package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/towow/towow/internal/pgcluster"
)

// TestEraseUserData: a person's demand is read back in full while it is
// theirs; another person cannot erase it (404); once its owner erases
// their data, every read shows "[已删除]" in place of their words while
// the negotiation keeps its outcome, another person's negotiation reads
// as before, every read model rebuilds identically, and a plain pg_dump
// of the whole database holds none of the erased words (nor anyone's: all
// personal texts are stored sealed).
func TestEraseUserData(t *testing.T) {
	dir := traversableTempDir(t)
	pgDir := filepath.Join(dir, "pg")
	t.Cleanup(func() { _ = pgcluster.Stop(context.Background(), pgDir) })
	const admin = "erasure-test-admin-token"
	env := []string{"TOWOW_DATA_DIR=" + dir, "TOWOW_ADMIN_TOKEN=" + admin}
	s := startServer(t, env...)
	alice, bob := s.token(t, "alice"), s.token(t, "bob")

	// Words only these demands hold: a name, a phone number, a place.
	aliceWords := []string{"王小明", "13812345678", "望湖书店"}
	bobWords := []string{"李四海", "13987654321"}
	aliceDemand := runDemand(t, s, alice, "我想在北京望湖书店办一场AI主题聚会，需要场地和嘉宾，联系人王小明，电话13812345678")
	bobDemand := runDemand(t, s, bob, "我们想在上海找一位摄影师拍公司年会，联系人李四海，电话13987654321")

	get := func(token, path string) (int, string) {
		t.Helper()
		resp, err := authRequest(http.MethodGet, s.url()+path, token, "")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	erase := func(token, user string) (int, string) {
		t.Helper()
		resp, err := authRequest(http.MethodDelete, s.url()+"/api/v1/users/"+user+"/data", token, "")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	holdsAll := func(body string, words []string) bool {
		for _, w := range words {
			if !strings.Contains(body, w) {
				return false
			}
		}
		return true
	}
	// Sealed at rest, revealed to its owner.
	if code, body := get(alice, "/api/v1/demands/"+aliceDemand); code != http.StatusOK || !holdsAll(body, aliceWords) {
		t.Fatalf("alice reads her demand before the erasure: %d %s", code, body)
	}
	if code, body := get(alice, "/api/v1/negotiations/"+aliceDemand+"/view"); code != http.StatusOK || strings.Contains(body, "{{towow:p1:") {
		t.Fatalf("the negotiation view shows sealed texts: %d %.600s", code, body)
	}
	// A fork of alice's negotiation, replayed from its recorded answers.
	code, body := get(alice, "/api/v1/events?demand_id="+aliceDemand+"&type=towow.aggregation.started&limit=1")
	var agg struct {
		Events []struct {
			Cursor int64 `json:"cursor"`
		} `json:"events"`
	}
	if _ = json.Unmarshal([]byte(body), &agg); code != http.StatusOK || len(agg.Events) == 0 {
		t.Fatalf("alice's first aggregation: %d %s", code, body)
	}
	forkBody, _ := json.Marshal(map[string]any{"at": agg.Events[0].Cursor, "change": map[string]string{"type": "none"}})
	resp, err := authRequest(http.MethodPost, s.url()+"/api/v1/negotiations/"+aliceDemand+"/forks", alice, string(forkBody))
	if err != nil {
		t.Fatal(err)
	}
	var fork struct {
		DemandID string `json:"demand_id"`
	}
	_ = json.NewDecoder(resp.Body).Decode(&fork)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || fork.DemandID == "" {
		t.Fatalf("fork: %d", resp.StatusCode)
	}
	for deadline := time.Now().Add(time.Minute); demandStatus(t, s.url(), alice, fork.DemandID) != "completed"; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the fork did not complete within a minute; log:\n%s", s.log())
		}
	}
	code, body = get(alice, "/api/v1/forks/"+fork.DemandID+"/compare")
	var cmp struct {
		SamePlan bool `json:"same_plan"`
	}
	if _ = json.Unmarshal([]byte(body), &cmp); code != http.StatusOK || !cmp.SamePlan || !holdsAll(body, []string{"场地"}) {
		t.Fatalf("the fork's comparison before the erasure: %d %.800s", code, body)
	}

	_, qualityBefore := get(alice, "/api/v1/demands/"+aliceDemand+"/quality")

	if code, body := erase(bob, "alice"); code != http.StatusNotFound {
		t.Fatalf("bob erases alice's data: %d %s; want 404", code, body)
	}
	if code, body := get(alice, "/api/v1/demands/"+aliceDemand); code != http.StatusOK || !holdsAll(body, aliceWords) {
		t.Fatalf("alice's demand after bob's refused erasure: %d %s", code, body)
	}

	code, body = erase(alice, "alice")
	var rec struct {
		KeyIDs   []string `json:"key_ids"`
		Subjects int      `json:"subjects"`
		Cursor   int64    `json:"cursor"`
	}
	_ = json.Unmarshal([]byte(body), &rec)
	if code != http.StatusOK || len(rec.KeyIDs) == 0 || rec.Subjects < 2 || rec.Cursor == 0 {
		t.Fatalf("alice erases her data: %d %s", code, body)
	}
	for _, w := range aliceWords {
		if strings.Contains(body, w) {
			t.Fatalf("the erasure's answer holds %q", w)
		}
	}

	// Every read shows the marker; the outcome stays.
	code, body = get(alice, "/api/v1/demands/"+aliceDemand)
	var d struct {
		RawInput string `json:"raw_input"`
		Status   string `json:"status"`
	}
	_ = json.Unmarshal([]byte(body), &d)
	if code != http.StatusOK || d.RawInput != "[已删除]" || d.Status != "completed" {
		t.Fatalf("alice's demand after the erasure: %d %s", code, body)
	}
	for _, path := range []string{
		"/api/v1/negotiations/" + aliceDemand + "/view",
		"/api/v1/negotiations/" + aliceDemand + "/replay",
		"/api/v1/events?demand_id=" + aliceDemand + "&limit=1000",
		"/api/v1/demands/" + fork.DemandID,
		"/api/v1/forks/" + fork.DemandID + "/compare",
	} {
		code, body := get(alice, path)
		if code != http.StatusOK || !strings.Contains(body, "[已删除]") || strings.Contains(body, "{{towow:p1:") {
			t.Fatalf("GET %s after the erasure: %d %.600s", path, code, body)
		}
		for _, w := range aliceWords {
			if strings.Contains(body, w) {
				t.Fatalf("GET %s after the erasure still holds %q", path, w)
			}
		}
	}
	// The quality figures are the same numbers.
	if code, q := get(alice, "/api/v1/demands/"+aliceDemand+"/quality"); code != http.StatusOK || q != qualityBefore || !strings.Contains(q, "need_coverage") {
		t.Fatalf("quality after the erasure: %d %s; before: %s", code, q, qualityBefore)
	}
	if code, body := get(bob, "/api/v1/demands/"+bobDemand); code != http.StatusOK || !holdsAll(body, bobWords) {
		t.Fatalf("bob's demand after alice's erasure: %d %s", code, body)
	}
	s.stop(t)

	// Every read model rebuilds to the same rows.
	out, errOut, exit := runTowow(t, env, "projections", "rebuild")
	if exit != 0 || strings.Contains(out, "differs") || strings.Count(out, "identical to the rows before") < 5 {
		t.Fatalf("towow projections rebuild after the erasure: %d\n%s%s", exit, out, errOut)
	}

	// Everything the server wrote was sealed as written: the upgrade's
	// sealing finds nothing to do.
	if out, errOut, exit := runTowow(t, env, "personal", "seal"); exit != 0 || !strings.Contains(out, "sealed 0 personal texts in 0 events") {
		t.Fatalf("towow personal seal: %d %s%s", exit, out, errOut)
	}

	// No one's words are in the database.
	c, err := pgcluster.Start(context.Background(), pgcluster.Config{DataDir: pgDir})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop(context.Background())
	pgDump, err := c.Tool("pg_dump")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pgDump, "--format=plain", "--dbname="+c.URL("towow"))
	var dump, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &dump, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("pg_dump: %v %s", err, stderr.String())
	}
	if !bytes.Contains(dump.Bytes(), []byte("towow.personal.erased")) || dump.Len() < 100_000 {
		t.Fatalf("the dump (%d bytes) misses the erasure event", dump.Len())
	}
	for _, w := range append(aliceWords, bobWords...) {
		if i := bytes.Index(dump.Bytes(), []byte(w)); i >= 0 {
			t.Errorf("the dump holds %q: …%s…", w, dump.Bytes()[max(i-300, 0):min(i+100, dump.Len())])
		}
	}
}
