// Package apifuzz walks a running ToWow server's published OpenAPI
// document and sends every operation valid, boundary and hostile values in
// its path, query, body and credentials, then checks each answer against
// the document: never a 5xx, only declared statuses, every error a
// problem+json with a TOWOW_* code, every JSON body (answer or problem)
// valid against the schema its status declares, every live stream text/event-stream with JSON data, and
// — when it can see the log's head — nothing written by a refused
// request. `make test` runs it through the API's tests; `towow fuzz` runs
// it for as long as you like.
package apifuzz

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Options configure a run.
type Options struct {
	// BaseURL is the server, such as http://127.0.0.1:8080.
	BaseURL string
	// Requests is how many requests to send (after the setup).
	Requests int
	// Seed makes a run repeatable: the same seed, the same requests.
	Seed uint64
	// AdminToken is the server's admin token. Some requests carry it, and
	// the setup uses it to register an external agent whose own token other
	// requests carry. Empty: no admin and no valid agent token are sent.
	AdminToken string
	// UserTokens are signed-in users' bearer tokens (two users: each
	// request that carries one acts as one of them, on the other's
	// resources as often as on its own). Empty: no user token is sent.
	UserTokens []string
	// Head reads the event log's last committed position (settled or
	// not: eventstore.Store.LatestPosition): a refused request must not
	// move it. It is only meaningful when nothing else writes (the
	// server's engine is not working). Nil: not checked.
	Head func(context.Context) (int64, error)
	// StreamRead is how long a live stream is read before the fuzzer hangs
	// up (default 150 ms). A fifth of the turns of a stream operation
	// read one; the others go to the next operation.
	StreamRead time.Duration
	// Client sends the requests (default: a client that follows no
	// redirects, with a 10 s timeout).
	Client *http.Client
}

// Report sums up a run.
type Report struct {
	// Requests and Operations are what was sent, and over how many
	// operations of the document.
	Requests, Operations int
	// Statuses counts the answers by status.
	Statuses map[int]int
	// Validated counts the JSON bodies (answers and problems) checked
	// against the schema their status declares.
	Validated int
	// Streams counts the server-sent-event answers read.
	Streams int
	// Unsendable counts requests Go's client refuses to send (such as
	// %zz in a path).
	Unsendable int
}

// Violation is an answer that breaks the published contract.
type Violation struct {
	Method, URL string
	Status      int
	Reason      string
	Body        string
}

// Error says what was sent, what came back and what is wrong with it.
func (v *Violation) Error() string {
	body := v.Body
	if len(body) > 2000 {
		body = body[:2000] + "…"
	}
	return fmt.Sprintf("%s %s → %d: %s\n%s", v.Method, v.URL, v.Status, v.Reason, body)
}

// ErrSetup reports that the run could not start (the document or the
// setup requests failed).
var ErrSetup = errors.New("apifuzz: setup")

var codeRE = regexp.MustCompile(`^TOWOW_[A-Z_]+(_[0-9]{3})?$`)

// Run sends opts.Requests requests and returns at the first violation
// (a *Violation) or with the report.
func Run(ctx context.Context, opts Options) (Report, error) {
	if opts.StreamRead <= 0 {
		opts.StreamRead = 150 * time.Millisecond
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	f := &fuzzer{opts: opts, rep: Report{Statuses: map[int]int{}}, known: map[string][]string{}}
	if err := f.load(ctx); err != nil {
		return f.rep, err
	}
	if err := f.setup(ctx); err != nil {
		return f.rep, err
	}
	r := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	for i := 0; f.rep.Requests < opts.Requests; i++ {
		if err := ctx.Err(); err != nil {
			return f.rep, err
		}
		op := f.ops[i%len(f.ops)]
		if f.streams(op) && r.IntN(5) > 0 {
			op = f.ops[(i+1)%len(f.ops)] // a stream takes StreamRead: fewer of them
		}
		if err := f.send(ctx, r, op); err != nil {
			return f.rep, err
		}
	}
	return f.rep, nil
}

type fuzzer struct {
	opts  Options
	doc   map[string]any
	ops   []operation
	rep   Report
	known map[string][]string // valid ids by parameter name
	agent string              // a valid external agent token
	head  int64
}

// operation is one operation of the document.
type operation struct {
	id, method, path string
	params           []param
	body             bool
	responses        map[string]any // status → response object
	auth             bool
}

// load reads the operations from the server's /openapi.json.
func (f *fuzzer) load(ctx context.Context) error {
	raw, status, err := f.call(ctx, http.MethodGet, "/openapi.json", "", "")
	if err != nil || status != http.StatusOK {
		return fmt.Errorf("%w: GET /openapi.json: %d %v", ErrSetup, status, err)
	}
	if err := decode(raw, &f.doc); err != nil {
		return fmt.Errorf("%w: the OpenAPI document: %v", ErrSetup, err)
	}
	paths, _ := f.doc["paths"].(map[string]any)
	for path, item := range paths {
		methods, _ := item.(map[string]any)
		for method, o := range methods {
			o, ok := o.(map[string]any)
			if !ok {
				continue
			}
			op := operation{id: fmt.Sprint(o["operationId"]), method: strings.ToUpper(method), path: path, body: o["requestBody"] != nil}
			op.responses, _ = o["responses"].(map[string]any)
			sec, _ := o["security"].([]any)
			for _, req := range sec {
				if m, ok := req.(map[string]any); ok && len(m) > 0 {
					op.auth = true
				}
			}
			params, _ := o["parameters"].([]any)
			for _, p := range params {
				p, _ := p.(map[string]any)
				s, _ := p["schema"].(map[string]any)
				fp := param{name: fmt.Sprint(p["name"]), in: fmt.Sprint(p["in"]), typ: fmt.Sprint(s["type"])}
				if v, ok := number(s["minimum"]); ok {
					fp.min = &v
				}
				if v, ok := number(s["maximum"]); ok {
					fp.max = &v
				}
				enum, _ := s["enum"].([]any)
				for _, e := range enum {
					fp.enum = append(fp.enum, fmt.Sprint(e))
				}
				op.params = append(op.params, fp)
			}
			f.ops = append(f.ops, op)
		}
	}
	if len(f.ops) == 0 {
		return fmt.Errorf("%w: the document has no operations", ErrSetup)
	}
	sort.Slice(f.ops, func(i, j int) bool { return f.ops[i].id < f.ops[j].id })
	f.rep.Operations = len(f.ops)
	return nil
}

// setup submits a demand and, with the admin token, registers an external
// agent and makes its first contact, so that valid ids and a valid agent
// token reach the operations (their 2xx answers get checked too), then
// reads the log's head.
func (f *fuzzer) setup(ctx context.Context) error {
	// The first user's demand (the other user's requests on it must get
	// 404), else the operator's for the user apifuzz.
	owner, body := f.opts.AdminToken, `{"raw_input":"apifuzz: 需要一位摄影师","user_id":"apifuzz"}`
	if len(f.opts.UserTokens) > 0 {
		owner, body = f.opts.UserTokens[0], `{"raw_input":"apifuzz: 需要一位摄影师"}`
	}
	raw, status, err := f.call(ctx, http.MethodPost, "/api/v1/demand/submit", owner, body)
	if err != nil || status != http.StatusAccepted {
		return fmt.Errorf("%w: submit a demand: %d %v %s", ErrSetup, status, err, raw)
	}
	var sub struct{ DemandID, ChannelID string }
	if err := json.Unmarshal(raw, &struct {
		D *string `json:"demand_id"`
		C *string `json:"channel_id"`
	}{&sub.DemandID, &sub.ChannelID}); err != nil {
		return fmt.Errorf("%w: submit a demand: %v", ErrSetup, err)
	}
	f.known["demand_id"] = []string{sub.DemandID}
	f.known["channel_id"] = []string{sub.ChannelID}
	if f.opts.AdminToken != "" {
		id := fmt.Sprintf("apifuzz_%d", f.opts.Seed)
		raw, status, err := f.call(ctx, http.MethodPost, "/api/v1/agents", f.opts.AdminToken,
			`{"agent_id":"`+id+`","user_name":"Fuzz","profile_summary":"an external agent of the fuzzer","location":"北京","tags":["摄影"],"mode":"external"}`)
		if err == nil && status == http.StatusConflict { // registered by an earlier run
			raw, status, err = f.call(ctx, http.MethodPost, "/api/v1/agents/"+id+"/token", f.opts.AdminToken, "")
		}
		var w struct {
			Token string `json:"token"`
		}
		if err != nil || status/100 != 2 || json.Unmarshal(raw, &w) != nil || w.Token == "" {
			return fmt.Errorf("%w: register an external agent: %d %v %s", ErrSetup, status, err, raw)
		}
		f.agent = w.Token
		f.known["agent_id"] = []string{id, "user_agent_lihua"}
		// The agent's first contact writes its towow.agent.online: make it
		// now, before the head is read, so that only the requests under
		// test can move the log.
		if _, status, err := f.call(ctx, http.MethodGet, "/api/v1/agent/inbox", w.Token, ""); err != nil || status >= 500 {
			return fmt.Errorf("%w: the external agent's first contact: %d %v", ErrSetup, status, err)
		}
	}
	if f.opts.Head != nil {
		h, err := f.opts.Head(ctx)
		if err != nil {
			return fmt.Errorf("%w: read the log's head: %v", ErrSetup, err)
		}
		f.head = h
	}
	return nil
}

// call sends one setup request and reads the whole answer.
func (f *fuzzer) call(ctx context.Context, method, path, token, body string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, f.opts.BaseURL+path, strings.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := f.opts.Client.Do(req)
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	return raw, resp.StatusCode, err
}

// send sends op one drawn request and checks the answer.
func (f *fuzzer) send(ctx context.Context, r *rand.Rand, op operation) error {
	path, query := op.path, []string{}
	for _, p := range op.params {
		switch p.in {
		case "path":
			path = strings.Replace(path, "{"+p.name+"}", p.value(r, f.known), 1)
		case "query":
			if r.IntN(3) == 0 {
				query = append(query, p.name+"="+p.value(r, f.known))
			}
		}
	}
	target := f.opts.BaseURL + path
	if len(query) > 0 {
		target += "?" + strings.Join(query, "&")
	}
	var body io.Reader
	if op.body || r.IntN(10) == 0 {
		body = strings.NewReader(bodies[r.IntN(len(bodies))])
	}
	stream := f.streams(op)
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if stream {
		rctx, cancel = context.WithTimeout(ctx, f.opts.StreamRead)
	}
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, op.method, target, body)
	if err != nil {
		f.rep.Unsendable++
		return nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	switch r.IntN(8) {
	case 5, 6:
		if len(f.opts.UserTokens) > 0 {
			req.Header.Set("Authorization", "Bearer "+f.opts.UserTokens[r.IntN(len(f.opts.UserTokens))])
		}
	case 1, 7:
		if f.opts.AdminToken != "" {
			req.Header.Set("Authorization", "Bearer "+f.opts.AdminToken)
		}
	case 2:
		if f.agent != "" {
			req.Header.Set("Authorization", "Bearer "+f.agent)
		}
	case 3:
		req.Header.Set("Authorization", "Bearer towow_agent_bogus")
	case 4:
		req.Header.Set("Authorization", "Basic eA==")
	}
	f.rep.Requests++
	resp, err := f.opts.Client.Do(req)
	if err != nil {
		return &Violation{Method: op.method, URL: target, Reason: "no answer: " + err.Error()}
	}
	defer resp.Body.Close()
	raw, readErr := io.ReadAll(resp.Body)
	v := &Violation{Method: op.method, URL: target, Status: resp.StatusCode, Body: string(raw)}
	if readErr != nil && !(stream && resp.StatusCode == http.StatusOK && rctx.Err() != nil) { // we hung up
		v.Reason = "reading the answer: " + readErr.Error()
		return v
	}
	f.rep.Statuses[resp.StatusCode]++
	status := strconv.Itoa(resp.StatusCode)
	declared, ok := op.responses[status].(map[string]any)
	if !ok {
		declared, ok = op.responses["default"].(map[string]any)
	}
	ct := resp.Header.Get("Content-Type")
	switch {
	case resp.StatusCode >= 500:
		v.Reason = "a server error"
		return v
	case !ok:
		v.Reason = fmt.Sprintf("a status %s does not declare", op.id)
		return v
	case resp.StatusCode >= 400:
		if err := f.checkBody(declared, ct, raw); err != nil {
			v.Reason = err.Error()
			return v
		}
		return f.checkRefused(ctx, v, ct, raw)
	case strings.HasPrefix(ct, "text/event-stream"):
		if err := checkFrames(raw); err != nil {
			v.Reason = err.Error()
			return v
		}
		f.rep.Streams++
	case len(raw) > 0:
		if err := f.checkBody(declared, ct, raw); err != nil {
			v.Reason = err.Error()
			return v
		}
	}
	if f.opts.Head != nil { // an accepted command may write
		h, err := f.opts.Head(ctx)
		if err != nil {
			return err
		}
		f.head = h
	}
	return nil
}

// streams reports whether op answers with server-sent events.
func (f *fuzzer) streams(op operation) bool {
	ok, _ := op.responses["200"].(map[string]any)
	content, _ := ok["content"].(map[string]any)
	_, yes := content["text/event-stream"]
	return yes
}

// checkRefused checks an error answer: problem+json with its status and a
// TOWOW_* code, and nothing written.
func (f *fuzzer) checkRefused(ctx context.Context, v *Violation, ct string, raw []byte) error {
	var p struct {
		Status int    `json:"status"`
		Code   string `json:"code"`
	}
	if ct != "application/problem+json" || json.Unmarshal(raw, &p) != nil || p.Status != v.Status || !codeRE.MatchString(p.Code) {
		v.Reason = "not a problem+json with its status and a TOWOW_* code (Content-Type " + ct + ")"
		return v
	}
	if f.opts.Head == nil {
		return nil
	}
	now, err := f.opts.Head(ctx)
	if err != nil {
		return err
	}
	if now != f.head {
		v.Reason = fmt.Sprintf("refused, but the log moved from %d to %d", f.head, now)
		return v
	}
	return nil
}

// checkBody validates a body against the schema its status declares.
func (f *fuzzer) checkBody(declared map[string]any, ct string, raw []byte) error {
	content, _ := declared["content"].(map[string]any)
	media, ok := content[strings.TrimSpace(strings.Split(ct, ";")[0])].(map[string]any)
	if !ok {
		return fmt.Errorf("Content-Type %q, which the status does not declare", ct)
	}
	var body any
	if err := decode(raw, &body); err != nil {
		return fmt.Errorf("the body is not JSON: %v", err)
	}
	if err := validate(f.doc, media["schema"], body, "body"); err != nil {
		return fmt.Errorf("the body breaks its schema: %w", err)
	}
	f.rep.Validated++
	return nil
}

// checkFrames checks what was read of a live stream: every data line of a
// frame is JSON (a frame cut off by the hang-up is not checked).
func checkFrames(raw []byte) error {
	if i := bytes.LastIndex(raw, []byte("\n\n")); i >= 0 {
		raw = raw[:i]
	} else {
		return nil
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data:"); ok && !json.Valid([]byte(strings.TrimSpace(data))) {
			return fmt.Errorf("an event's data is not JSON: %.200s", data)
		}
	}
	return sc.Err()
}

// decode reads JSON keeping numbers exact.
func decode(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}
