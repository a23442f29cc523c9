package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestSlowBodyIsCutOff: a client that trickles its body is answered 408
// problem+json (TOWOW_REQUEST_005) once the body timeout has passed, the
// connection is closed, and nothing is written; a body sent in time on the
// same server still goes through.
func TestSlowBodyIsCutOff(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{bodyTimeout: 500 * time.Millisecond})
	ctx := context.Background()
	head, err := a.store.LatestPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(a.url)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /api/v1/demand/submit HTTP/1.1\r\nHost: "+u.Host+
		"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one byte every 100 ms, as a hostile client would
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := io.WriteString(conn, " "); err != nil {
					return
				}
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	start := time.Now()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a trickled body after %s: %v", time.Since(start), err)
	}
	var p problemBody
	_ = json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout || p.Code != "TOWOW_REQUEST_005" ||
		resp.Header.Get("Content-Type") != "application/problem+json" || !resp.Close {
		t.Fatalf("%d %s close=%v %+v, want 408 problem+json TOWOW_REQUEST_005 closing the connection",
			resp.StatusCode, resp.Header.Get("Content-Type"), resp.Close, p)
	}
	after, err := a.store.LatestPosition(ctx)
	if err != nil || after != head {
		t.Fatalf("a cut-off request wrote to the log: head %d → %d (%v)", head, after, err)
	}
	body := `{"raw_input":"周末在北京办一场AI聚会，需要场地","user_id":"u1"}`
	req, _ := http.NewRequest("POST", a.url+"/api/v1/demand/submit", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	ok, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	ok.Body.Close()
	if ok.StatusCode != http.StatusAccepted {
		t.Fatalf("a body sent at once: %d", ok.StatusCode)
	}
}

// TestErrorsQuoteOnlyExcerpts: an error answer says where and what is
// wrong, but quotes at most a short excerpt of the input back, however
// large the input: JSON nested too deep, a body that is not JSON, a long
// value that does not validate, a long unknown path, a long bad query
// parameter name.
func TestErrorsQuoteOnlyExcerpts(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{})
	long := strings.Repeat("很长的文字", 2000) // 30,000 bytes
	tests := []struct {
		name, method, path, body string
		status                   int
	}{
		{"nested too deep", "POST", "/api/v1/demand/submit", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), 400},
		{"not JSON", "POST", "/api/v1/demand/submit", `{"raw_input": ` + long, 400},
		{"a value that does not validate", "POST", "/api/v1/demand/submit", `{"raw_input":"x","user_id":"` + long + `"}`, 422},
		{"an unknown property", "POST", "/api/v1/demand/submit", `{"raw_input":"x","user_id":"u1","` + long + `":1}`, 422},
		{"a long unknown path", "GET", "/api/v1/" + url.PathEscape(long), "", 404},
		{"a long bad query name", "GET", "/api/v1/events?" + url.QueryEscape(long) + "%00=1", "", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, a.url+tc.path, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Fatalf("%d %s, want %d problem+json: %.300s", resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, b)
			}
			if len(b) > 2048 || strings.Contains(string(b), strings.Repeat("很长的文字", 20)) || strings.Contains(string(b), strings.Repeat("[", 200)) {
				t.Fatalf("the answer (%d bytes) echoes the input: %.600s", len(b), b)
			}
		})
	}
}

// TestEventsMinCursor: the audit list reads its own writes with
// min_cursor (the cursor a write returned), and answers 503
// TOWOW_READMODEL_001 when the log has not settled that far within its
// wait.
func TestEventsMinCursor(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	alice := userToken(t, "alice")
	sub := a.expect(t, "submit", alice, "POST", "/api/v1/demand/submit", `{"raw_input":"周末在北京办一场AI聚会，需要场地"}`, 202, "cursor")
	var s struct {
		DemandID string `json:"demand_id"`
		Cursor   int64  `json:"cursor"`
	}
	if err := json.Unmarshal([]byte(sub), &s); err != nil || s.Cursor == 0 {
		t.Fatalf("submit: %s (%v)", sub, err)
	}
	got := a.expect(t, "the submitted demand, read at once", alice, "GET",
		fmt.Sprintf("/api/v1/events?demand_id=%s&type=towow.demand.submitted&min_cursor=%d", s.DemandID, s.Cursor), "", 200, "towow.demand.submitted")
	if !strings.Contains(got, s.DemandID) {
		t.Fatalf("the list: %.500s", got)
	}
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/events?demand_id=%s&min_cursor=%d", a.url, s.DemandID, s.Cursor<<20), nil)
	req.Header.Set("Authorization", "Bearer "+alice)
	resp, err := (&http.Client{Timeout: time.Minute}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if p := readProblem(resp); resp.StatusCode != http.StatusServiceUnavailable || p.Code != "TOWOW_READMODEL_001" {
		t.Fatalf("a cursor the log never reaches: %d %+v, want 503 TOWOW_READMODEL_001", resp.StatusCode, p)
	}
}
