package api_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestHostileInput: text that cannot be valid anywhere — NUL, invalid
// UTF-8, lone surrogates, control characters — in the path, the query or
// a JSON body is a 400 problem+json naming the parameter
// (TOWOW_REQUEST_003), never a 500; dot and empty path segments are
// refused, never redirected; a wrong method is a 405 with Allow; nothing
// is written; every refusal is logged at WARN with its request id.
func TestHostileInput(t *testing.T) {
	logs := &syncBuffer{}
	a := newAPIWith(t, "", apiOptions{logger: slog.New(slog.NewJSONHandler(logs, nil))})
	ctx := context.Background()
	head, err := a.store.LatestPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	do := func(method, rawURL, body string) *http.Response {
		req, err := http.NewRequest(method, a.url+rawURL, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	const bad = "TOWOW_REQUEST_003"
	tests := []struct {
		method, url, body string
		status            int
		code, param       string
		allow             string
	}{
		{"GET", "/api/v1/events?type=%00", "", 400, bad, `query parameter "type"`, ""},
		{"GET", "/api/v1/events?type_prefix=%00", "", 400, bad, `query parameter "type_prefix"`, ""},
		{"GET", "/api/v1/events?stream_id=%00", "", 400, bad, `query parameter "stream_id"`, ""},
		{"GET", "/api/v1/events?demand_id=%FF", "", 400, bad, `query parameter "demand_id"`, ""},
		{"GET", "/api/v1/events?actor=%ED%A0%80", "", 400, bad, `query parameter "actor"`, ""},
		{"GET", "/api/v1/demands?user_id=%00", "", 400, bad, `query parameter "user_id"`, ""},
		{"GET", "/api/v1/agents?q=%00", "", 400, bad, `query parameter "q"`, ""},
		{"GET", "/api/v1/agents?tag=a%01b", "", 400, bad, `query parameter "tag"`, ""},
		{"GET", "/api/v1/agents?location=%FF", "", 400, bad, `query parameter "location"`, ""},
		{"GET", "/api/v1/agents?cursor=%00", "", 400, bad, `query parameter "cursor"`, ""},
		{"GET", "/api/v1/llm-calls?prompt=%00", "", 400, bad, `query parameter "prompt"`, ""},
		{"GET", "/api/v1/events?%00=1", "", 400, bad, "query parameter name", ""},
		{"GET", "/api/v1/events?type=%zz", "", 400, bad, "query", ""},
		{"GET", "/api/v1/agents/%ED%A0%80", "", 400, bad, "path", ""},
		{"GET", "/api/v1/demands/%FF", "", 400, bad, "path", ""},
		{"GET", "/api/v1/demands/a%00b", "", 400, bad, "path", ""},
		{"GET", "/api/v1/demands/../../etc/passwd", "", 400, bad, "path", ""},
		{"GET", "/api/v1/demands/./x", "", 400, bad, "path", ""},
		{"GET", "/api/v1/channels//offers", "", 400, bad, "path", ""},
		{"POST", "/api/v1/agents//token", "", 400, bad, "path", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"a\u0000b","user_id":"u1"}`, 400, bad, "body.raw_input", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"\ud800","user_id":"u1"}`, 400, bad, "body.raw_input", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"x\udc00y","user_id":"u1"}`, 400, bad, "body.raw_input", ""},
		{"POST", "/api/v1/demand/submit", "{\"raw_input\":\"\xff\",\"user_id\":\"u1\"}", 400, bad, "body.raw_input", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"ok","user_id":"u\u0007"}`, 400, bad, "body.user_id", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"ok","user_id":"u1","x":[1,{"y":"\b"}]}`, 400, bad, "body.x[1].y", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"ok","user_id":"u1","a\u0000":1}`, 400, bad, `body["a\x00"] (the key)`, ""},
		// The mark of a sealed personal text, as sent and as JSON escapes.
		{"POST", "/api/v1/demand/submit", `{"raw_input":"看 {{towow:p1:0123456789abcdef0123456789abcdef:AAAA}}","user_id":"u1"}`, 400, bad, "body.raw_input", ""},
		{"POST", "/api/v1/demand/submit", `{"raw_input":"\u007b{towow:p1:x","user_id":"u1"}`, 400, bad, "body.raw_input", ""},
		{"DELETE", "/api/v1/demand/submit", "", 405, "TOWOW_REQUEST_004", "", "POST"},
		{"PUT", "/api/v1/agents", "", 405, "TOWOW_REQUEST_004", "", "GET, HEAD, POST"},
		{"GET", "/api/v1/agents/bulk", "", 405, "TOWOW_REQUEST_004", "", "POST"},
		{"PUT", "/api/v1/agents/bulk", `{"user_name":"x"}`, 405, "TOWOW_REQUEST_004", "", "POST"},
		{"DELETE", "/api/v1/agents/bulk", "", 405, "TOWOW_REQUEST_004", "", "POST"},
		{"GET", "/api/v1/nope", "", 404, "TOWOW_NOT_FOUND", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.url, func(t *testing.T) {
			resp := do(tc.method, tc.url, tc.body)
			p := readProblem(resp)
			if resp.StatusCode != tc.status || p.Code != tc.code || resp.Header.Get("Content-Type") != "application/problem+json" ||
				!strings.Contains(p.Detail, tc.param) || resp.Header.Get("Allow") != tc.allow {
				t.Fatalf("%d %s Allow %q %+v, want %d %s naming %q, Allow %q", resp.StatusCode, resp.Header.Get("Content-Type"),
					resp.Header.Get("Allow"), p, tc.status, tc.code, tc.param, tc.allow)
			}
			if tc.status == 400 {
				id := resp.Header.Get("X-Request-Id")
				if id == "" || !strings.Contains(logs.String(), `"request_id":"`+id+`"`) {
					t.Fatalf("refusal not logged with its request id %q:\n%s", id, logs.String())
				}
			}
		})
	}
	after, err := a.store.LatestPosition(ctx)
	if err != nil || after != head {
		t.Fatalf("refused requests wrote to the log: head %d → %d (%v)", head, after, err)
	}
	// The same parameters with sane values still work.
	for _, u := range []string{"/api/v1/events?type=towow.demand.submitted&actor=user:u1", "/api/v1/agents?q=%E6%91%84%E5%BD%B1"} {
		resp := do("GET", u, "")
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", u, resp.StatusCode)
		}
	}
	resp := do("POST", "/api/v1/demand/submit", `{"raw_input":"第一行\n第二行\t（含制表符）😀","user_id":"u1"}`)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("a multi-line demand with an emoji: %d", resp.StatusCode)
	}
}

// syncBuffer is a log sink shared by the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
