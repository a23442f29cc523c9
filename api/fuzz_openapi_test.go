package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fuzzOp is one operation of the published OpenAPI document.
type fuzzOp struct {
	id, method, path string
	params           []fuzzParam
	body             bool
	statuses         map[string]bool // declared responses
	auth             bool            // needs a bearer token
}

type fuzzParam struct {
	name, in, typ string
	enum          []string
	min, max      *float64
}

// loadOps reads the operations from the server's /openapi.json.
func loadOps(t *testing.T, base string) []fuzzOp {
	t.Helper()
	resp, err := http.Get(base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
			Parameters  []struct {
				Name   string `json:"name"`
				In     string `json:"in"`
				Schema struct {
					Type    any      `json:"type"`
					Enum    []any    `json:"enum"`
					Minimum *float64 `json:"minimum"`
					Maximum *float64 `json:"maximum"`
				} `json:"schema"`
			} `json:"parameters"`
			RequestBody any                `json:"requestBody"`
			Responses   map[string]any     `json:"responses"`
			Security    []map[string][]any `json:"security"`
		} `json:"paths"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	var ops []fuzzOp
	for path, methods := range doc.Paths {
		for method, o := range methods {
			op := fuzzOp{id: o.OperationID, method: strings.ToUpper(method), path: path, body: o.RequestBody != nil,
				statuses: map[string]bool{}}
			for s := range o.Responses {
				op.statuses[s] = true
			}
			for _, req := range o.Security {
				if len(req) > 0 {
					op.auth = true
				}
			}
			for _, p := range o.Parameters {
				fp := fuzzParam{name: p.Name, in: p.In, typ: fmt.Sprint(p.Schema.Type), min: p.Schema.Minimum, max: p.Schema.Maximum}
				for _, e := range p.Schema.Enum {
					fp.enum = append(fp.enum, fmt.Sprint(e))
				}
				op.params = append(op.params, fp)
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].id < ops[j].id })
	return ops
}

// hostile are values that must be refused cleanly wherever they go.
var hostile = []string{"%00", "a%00b", "%FF", "%ED%A0%80", "%C3%28", "..", ".", "%2e%2e", "a%0Ab", "%7F",
	strings.Repeat("長", 3000), "'; DROP TABLE events; --", "%27%22%3C%3E", "%zz"}

// value draws a path or query value for p: valid, boundary or mutated.
func (p fuzzParam) value(r *rand.Rand) string {
	switch r.IntN(4) {
	case 0: // valid-looking
		switch {
		case len(p.enum) > 0:
			return url.QueryEscape(p.enum[r.IntN(len(p.enum))])
		case p.typ == "integer" || p.typ == "number":
			lo, hi := 0.0, 100.0
			if p.min != nil {
				lo = *p.min
			}
			if p.max != nil {
				hi = *p.max
			}
			return strconv.Itoa(int(lo + (hi-lo)*r.Float64()))
		case p.typ == "boolean":
			return []string{"true", "false"}[r.IntN(2)]
		}
		return url.QueryEscape([]string{"d-000000000000", "collab-000000000000", "user_agent_lihua", "u1", "towow.demand.submitted",
			"demands", "smart_filter", "2026-11-24T10:00:00Z", "摄影师"}[r.IntN(9)])
	case 1: // boundary
		var out []string
		if p.min != nil {
			out = append(out, strconv.FormatFloat(*p.min-1, 'f', -1, 64), strconv.FormatFloat(*p.min, 'f', -1, 64))
		}
		if p.max != nil {
			out = append(out, strconv.FormatFloat(*p.max+1, 'f', -1, 64), strconv.FormatFloat(*p.max, 'f', -1, 64))
		}
		out = append(out, "", "0", "-1", "9223372036854775808", "1e309", "1.5", strings.Repeat("a", 1000))
		return url.QueryEscape(out[r.IntN(len(out))])
	}
	h := hostile[r.IntN(len(hostile))]
	if !strings.Contains(h, "%") {
		h = url.QueryEscape(h) // the others are escaped already, on purpose
	}
	return h
}

// bodies are JSON bodies for the operations that take one: plausible,
// boundary and hostile (as sent, escapes included).
var bodies = []string{
	`{"raw_input":"我想在北京办一场AI主题聚会","user_id":"u1"}`,
	`{"raw_input":"","user_id":"u1"}`, `{"raw_input":"x"}`, `{}`, `[]`, `null`, `"x"`, `{`, ``,
	`{"raw_input":"a\u0000b","user_id":"u1"}`, `{"raw_input":"\ud800","user_id":"u1"}`, "{\"raw_input\":\"\xff\",\"user_id\":\"u1\"}",
	`{"raw_input":123,"user_id":true}`, `{"raw_input":"x","user_id":"u1","extra":{"deep":[[[[[[[[[[1]]]]]]]]]]}}`,
	`{"decision":"participate","contribution":"我来"}`, `{"decision":"maybe"}`, `{"decision":"conditional"}`,
	`{"round":1,"feedback_type":"accept"}`, `{"round":-1,"feedback_type":"accept"}`, `{"round":1,"feedback_type":"\u0000"}`,
	`{"agent_id":"fuzz_agent","user_name":"Fuzz","profile_summary":"x","capability_tags":["摄影"],"location":"北京"}`,
	`{"agent_id":"","user_name":""}`, `{"agent_id":"a\u0000"}`, `[{"agent_id":"x"}]`, `{"reason":"done"}`,
	`{"raw_input":"` + strings.Repeat("長", 12000) + `","user_id":"u1"}`,
}

// TestOpenAPIFuzz walks the published OpenAPI document and sends every
// operation valid, boundary and hostile values in its path, query and
// body, with and without credentials (at least 5,000 requests; set
// TOWOW_FUZZ_REQUESTS for more). Every answer must be one of the statuses
// the operation declares, never a 5xx; every error must be problem+json
// with a TOWOW_* code; and a refused request must write nothing (the
// log's head does not move: the engine runs no steps here, so only an
// accepted command writes).
func TestOpenAPIFuzz(t *testing.T) {
	a := newAPIWith(t, "", apiOptions{noWorkers: true})
	n := 5000
	if v, err := strconv.Atoi(os.Getenv("TOWOW_FUZZ_REQUESTS")); err == nil && v > 0 {
		n = v
	}
	ops := loadOps(t, a.url)
	if len(ops) < 25 {
		t.Fatalf("only %d operations in the document", len(ops))
	}
	r := rand.New(rand.NewPCG(7, 11))
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ctx := context.Background()
	head, err := a.store.HeadPosition(ctx)
	if err != nil {
		t.Fatal(err)
	}
	codeRE := regexp.MustCompile(`^TOWOW_[A-Z_]+(_[0-9]{3})?$`)
	seen := map[string]int{}
	for i := range n {
		op := ops[i%len(ops)]
		if strings.Contains(op.path, "stream") {
			op = ops[(i+1)%len(ops)] // live streams do not end by themselves
			if strings.Contains(op.path, "stream") {
				continue
			}
		}
		path, query := op.path, []string{}
		for _, p := range op.params {
			switch p.in {
			case "path":
				path = strings.Replace(path, "{"+p.name+"}", p.value(r), 1)
			case "query":
				if r.IntN(3) == 0 {
					query = append(query, url.QueryEscape(p.name)+"="+p.value(r))
				}
			}
		}
		target := a.url + path
		if len(query) > 0 {
			target += "?" + strings.Join(query, "&")
		}
		var body io.Reader
		if op.body || r.IntN(10) == 0 {
			body = strings.NewReader(bodies[r.IntN(len(bodies))])
		}
		req, err := http.NewRequest(op.method, target, body)
		if err != nil {
			seen["unsendable"]++ // e.g. %zz in a path: Go's client refuses to send it
			continue
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		switch r.IntN(4) {
		case 1:
			req.Header.Set("Authorization", "Bearer "+testAdminToken)
		case 2:
			req.Header.Set("Authorization", "Bearer towow_agent_bogus")
		case 3:
			req.Header.Set("Authorization", "Basic eA==")
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", op.method, target, err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		status := strconv.Itoa(resp.StatusCode)
		seen[status]++
		switch {
		case resp.StatusCode >= 500:
			t.Fatalf("%s %s → %d:\n%s", op.method, target, resp.StatusCode, raw)
		case !op.statuses[status] && !op.statuses["default"]:
			t.Fatalf("%s %s → %d, which %s does not declare (%v):\n%s", op.method, target, resp.StatusCode, op.id, op.statuses, raw)
		case resp.StatusCode >= 400:
			var p struct {
				Status int    `json:"status"`
				Code   string `json:"code"`
			}
			if resp.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(raw, &p) != nil ||
				p.Status != resp.StatusCode || !codeRE.MatchString(p.Code) {
				t.Fatalf("%s %s → %d %s, not a problem+json with a TOWOW_* code:\n%s", op.method, target, resp.StatusCode,
					resp.Header.Get("Content-Type"), raw)
			}
			now, err := a.store.HeadPosition(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if now != head {
				t.Fatalf("%s %s → %d, refused, but the log moved from %d to %d", op.method, target, resp.StatusCode, head, now)
			}
		default:
			if len(raw) > 0 && !json.Valid(raw) {
				t.Fatalf("%s %s → %d with a body that is not JSON:\n%s", op.method, target, resp.StatusCode, raw)
			}
			if head, err = a.store.HeadPosition(ctx); err != nil { // an accepted command may write
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d requests over %d operations; statuses %v", n, len(ops), seen)
	if seen["400"] == 0 || seen["422"] == 0 || seen["404"] == 0 || seen["401"] == 0 {
		t.Fatalf("the fuzzer missed whole classes of answers: %v", seen)
	}
}
