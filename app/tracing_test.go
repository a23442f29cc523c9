package app_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace/noop"
	collectortrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/towow/towow/app"
	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/eventstore"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/dbtest"
	"github.com/towow/towow/internal/metrics"
	"github.com/towow/towow/internal/tracing"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/llm/builtin"
)

// span is one exported span, as the receiver decoded it.
type span struct {
	service             string
	traceID, id, parent string
	name                string
	kind                tracepb.Span_SpanKind
	attrs               map[string]any
	errored             bool
}

// receiver is an in-process OTLP/HTTP collector: it accepts POST
// /v1/traces with a protobuf ExportTraceServiceRequest and keeps the
// spans.
type receiver struct {
	mu       sync.Mutex
	spans    []span
	requests int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want POST /v1/traces with application/x-protobuf", http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		gz, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = gz
	}
	raw, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req collectortrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(raw, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	rc.requests++
	for _, rs := range req.ResourceSpans {
		service := ""
		for _, kv := range rs.GetResource().GetAttributes() {
			if kv.Key == "service.name" {
				service = kv.Value.GetStringValue()
			}
		}
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				attrs := map[string]any{}
				for _, kv := range s.Attributes {
					switch v := kv.Value.Value.(type) {
					case *commonpb.AnyValue_StringValue:
						attrs[kv.Key] = v.StringValue
					case *commonpb.AnyValue_IntValue:
						attrs[kv.Key] = v.IntValue
					case *commonpb.AnyValue_BoolValue:
						attrs[kv.Key] = v.BoolValue
					case *commonpb.AnyValue_DoubleValue:
						attrs[kv.Key] = v.DoubleValue
					}
				}
				rc.spans = append(rc.spans, span{service: service, traceID: hex.EncodeToString(s.TraceId), id: hex.EncodeToString(s.SpanId),
					parent: hex.EncodeToString(s.ParentSpanId), name: s.Name, kind: s.Kind, attrs: attrs,
					errored: s.GetStatus().GetCode() == tracepb.Status_STATUS_CODE_ERROR})
			}
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&collectortrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func (rc *receiver) all() ([]span, int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]span(nil), rc.spans...), rc.requests
}

// tracedApp starts an App on url with tracing read from the environment
// (OTEL_SERVICE_NAME names it). An idle App only takes commands; a working
// one with profiles "none" leaves registering the agents to another.
func tracedApp(t *testing.T, url, service string, idle bool, profiles string) *app.App {
	t.Helper()
	t.Setenv("OTEL_SERVICE_NAME", service)
	tc, err := tracing.FromEnv(os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(t.Context(), app.Config{DatabaseURL: url, Idle: idle, Profiles: profiles, Tracing: tc,
		LLM: llm.Config{Provider: builtin.New()}, People: testPeople})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// cleanOTEL clears the OTEL_* variables a developer's environment may set,
// for the test.
func cleanOTEL(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED",
		"OTEL_TRACES_EXPORTER", "OTEL_TRACES_SAMPLER", "OTEL_TRACES_SAMPLER_ARG", "OTEL_RESOURCE_ATTRIBUTES",
		"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"} {
		t.Setenv(k, "")
	}
}

// submit posts a demand to the API at base and returns its id.
// testPeople signs the tests' users in (local mode, a key of this run).
var testPeople = func() *identity.Authority {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	return identity.NewLocalWith(identity.NewSigner(key))
}()

// submit submits the sample demand as the user user_alice.
func submit(t *testing.T, base string) string {
	t.Helper()
	body := `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾"}`
	tok, err := testPeople.MintLocalToken("user_alice", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/demand/submit", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		DemandID string `json:"demand_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", resp.StatusCode, err)
	}
	return out.DemandID
}

// firstStreamed reads the id of the first event a live stream sends.
func firstStreamed(t *testing.T, url string) int64 {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := testPeople.MintLocalToken("user_alice", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "id: "); ok {
			n, err := strconv.ParseInt(id, 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("stream %s ended without an event: %v", url, sc.Err())
	return 0
}

var errEnded = errors.New("ended")

// negotiatedApp is an App on a fresh database with the builtin brain
// (cfg's other fields as given) that has run one negotiation to its end:
// the App and the demand's submission.
func negotiatedApp(t *testing.T, cfg app.Config) (*app.App, negotiation.DemandSubmission) {
	t.Helper()
	cfg.Pool = dbtest.New(t)
	cfg.LLM = llm.Config{Provider: builtin.New()}
	a, err := app.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	sub, err := a.Commands.SubmitDemand(t.Context(), "u1", "我想在北京办一场AI主题聚会，需要场地和嘉宾")
	if err != nil {
		t.Fatal(err)
	}
	waitNegotiation(t, a, sub.DemandID)
	return a, sub
}

// waitNegotiation waits for the root channel of demandID to complete, then
// for the steps the engine still has to run now (not the timeouts
// scheduled for later) to be done.
func waitNegotiation(t *testing.T, a *app.App, demandID string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	err := a.Store.Subscribe(ctx, eventstore.SubscribeOptions{Notifier: a.Notifier, Filter: eventstore.Filter{CorrelationID: demandID}},
		func(_ context.Context, batch []eventstore.RecordedEvent) error {
			for _, e := range batch {
				if p, err := e.Decode(); err == nil {
					if c, ok := p.(*negotiation.NegotiationCompleted); ok && c.ChannelID == negotiation.ChannelIDFor(demandID) {
						return errEnded
					}
				}
			}
			return nil
		})
	if !errors.Is(err, errEnded) {
		t.Fatalf("negotiation %s did not end: %v", demandID, err)
	}
	for {
		jobs, err := metrics.RiverJobs(ctx, a.Pool)
		if err != nil {
			t.Fatal(err)
		}
		if jobs["available"]+jobs["running"]+jobs["retryable"]+jobs["pending"] == 0 {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("steps still pending: %v", jobs)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestTracingOneTreeOneTrace runs one negotiation through HTTP on an API
// process (App A, idle: it only takes commands) while a worker process
// (App B, same database, no HTTP) runs every step, both exporting to an
// in-process OTLP/HTTP receiver. The whole tree is one trace, the HTTP
// request's: River's work spans are children of the request's span, the
// LLM and database spans children of the steps, and no span is orphaned.
func TestTracingOneTreeOneTrace(t *testing.T) {
	rc := &receiver{}
	collector := httptest.NewServer(rc)
	defer collector.Close()
	cleanOTEL(t)
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	url := dbtest.NewURL(t)

	api := tracedApp(t, url, "towow-api", true, "")
	defer api.Close()
	worker := tracedApp(t, url, "towow-worker", false, "none")
	defer worker.Close()
	srv := httptest.NewServer(api.Handler())
	defer srv.Close()

	// Probes are not traced.
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	demandID := submit(t, srv.URL)
	waitNegotiation(t, worker, demandID)
	events, err := eventstore.ReadEvery(t.Context(), worker.Store, 0, eventstore.Filter{CorrelationID: demandID})
	if err != nil {
		t.Fatal(err)
	}
	// The live stream works through the traced handler (its flushes and
	// write deadlines reach the connection).
	if first := firstStreamed(t, srv.URL+"/api/v1/events/negotiations/"+demandID+"/stream"); first != events[0].Position {
		t.Errorf("the stream began with event %d, want %d", first, events[0].Position)
	}
	srv.Close()
	worker.Close() // the steps stop, then its spans are flushed
	api.Close()

	spans, _ := rc.all()
	var root *span
	for i, s := range spans {
		if strings.Contains(s.name, "healthz") || strings.Contains(s.name, "readyz") {
			t.Errorf("probe traced: %s", s.name)
		}
		if s.name == "POST /api/v1/demand/submit" {
			if root != nil {
				t.Fatal("two submit spans")
			}
			root = &spans[i]
		}
	}
	if root == nil {
		t.Fatalf("no span POST /api/v1/demand/submit among %d spans", len(spans))
	}
	if root.service != "towow-api" || root.kind != tracepb.Span_SPAN_KIND_SERVER || root.parent != "" ||
		root.attrs["http.route"] != "/api/v1/demand/submit" {
		t.Errorf("submit span: service %s, kind %v, parent %q, route %v", root.service, root.kind, root.parent, root.attrs["http.route"])
	}

	// Every event of the tree (sub-negotiations too) carries the request's
	// traceparent.
	want := "00-" + root.traceID + "-" + root.id + "-01"
	subs := 0
	for _, e := range events {
		if e.Metadata.TraceParent != want {
			t.Fatalf("event %d %s of %s: traceparent %q, want %q", e.Position, e.Type, e.StreamID, e.Metadata.TraceParent, want)
		}
		if e.Type == negotiation.EventDemandSubmitted && e.StreamID != negotiation.DemandStream(demandID) {
			subs++
		}
	}

	byID := map[string]span{}
	var inTrace []span
	for _, s := range spans {
		if s.traceID == root.traceID {
			byID[s.id] = s
			inTrace = append(inTrace, s)
		}
	}
	count := map[string]int{}
	prompts := map[string]bool{}
	outcomes := map[string]int{}
	for _, s := range inTrace {
		if s.id == root.id {
			continue
		}
		parent, ok := byID[s.parent]
		if !ok {
			t.Errorf("span %q (%s) is orphaned: its parent %q is not in the trace", s.name, s.service, s.parent)
			continue
		}
		switch {
		case strings.HasPrefix(s.name, "river.work/"):
			count["work"]++
			if s.service != "towow-worker" || s.kind != tracepb.Span_SPAN_KIND_CONSUMER || s.parent != root.id {
				t.Errorf("work span %s: service %s, kind %v, parent %s, want the worker's consumer span under the request", s.name,
					s.service, s.kind, parent.name)
			}
		case s.name == "river.insert_many":
			count["insert"]++
		case strings.HasPrefix(s.name, "chat"):
			count["llm"]++
			prompts[s.attrs["towow.prompt_key"].(string)] = true
			if !strings.HasPrefix(parent.name, "river.work/") {
				t.Errorf("LLM span %s is a child of %q, want a step", s.name, parent.name)
			}
			if s.name != "chat "+builtin.ModelName || s.kind != tracepb.Span_SPAN_KIND_CLIENT {
				t.Errorf("LLM span %q kind %v", s.name, s.kind)
			}
			// The builtin brain answers every call (an answer that does not
			// parse is still an answer: outcome parse_error, fallback used).
			outcome, _ := s.attrs["towow.llm.outcome"].(string)
			outcomes[outcome]++
			for k, v := range map[string]any{"gen_ai.operation.name": "chat", "gen_ai.provider.name": builtin.ProviderName,
				"gen_ai.system": builtin.ProviderName, "gen_ai.request.model": builtin.ModelName, "gen_ai.response.model": builtin.ModelName,
				"towow.llm.fallback_used": outcome != event.LLMOutcomeOK, "towow.llm.reused": false} {
				if s.attrs[k] != v {
					t.Errorf("LLM span %s: %s = %#v, want %#v", s.attrs["towow.prompt_key"], k, s.attrs[k], v)
				}
			}
			for _, k := range []string{"gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens"} {
				if n, _ := s.attrs[k].(int64); n <= 0 {
					t.Errorf("LLM span %s: %s = %v, want > 0", s.attrs["towow.prompt_key"], k, s.attrs[k])
				}
			}
		case s.attrs["db.system.name"] == "postgresql":
			count["db"]++
			if s.attrs["db.query.text"] == nil && s.name != "pool.acquire" && s.name != "connect" { // acquiring, or opening a connection, runs no query
				t.Errorf("database span %q without db.query.text", s.name)
			}
			switch {
			case strings.HasPrefix(parent.name, "river.work/"):
				count["db in step"]++
			case parent.id == root.id:
				count["db in request"]++
			}
		}
	}
	if outcomes[event.LLMOutcomeOK] == 0 || outcomes[event.LLMOutcomeOK]+outcomes[event.LLMOutcomeParseError] != count["llm"] {
		t.Errorf("LLM outcomes %v of %d calls, want ok (or parse_error) only", outcomes, count["llm"])
	}
	for _, k := range []string{"work", "insert", "llm", "db", "db in step", "db in request"} {
		if count[k] == 0 {
			t.Errorf("no %s span in the trace (counts %v)", k, count)
		}
	}
	for _, p := range []llm.PromptKey{llm.PromptUnderstand, llm.PromptFilter, llm.PromptOffer, llm.PromptAggregate, llm.PromptFeedback} {
		if !prompts[string(p)] {
			t.Errorf("no LLM span of prompt %s (have %v)", p, prompts)
		}
	}
	// Every step that ran, of this only tree, is in its trace. The periodic
	// presence check belongs to no tree: River's leader runs it on its own
	// schedule, in a trace of its own.
	for _, s := range spans {
		if strings.HasPrefix(s.name, "river.work/") && s.name != "river.work/towow.agent_presence" && s.traceID != root.traceID {
			t.Errorf("step %s ran in another trace", s.name)
		}
	}
	if subs == 0 {
		t.Error("no sub-negotiation: the test should show that sub-negotiations join the trace")
	}
	t.Logf("%d spans in the trace (%v), LLM outcomes %v, %d events, %d sub-negotiations", len(inTrace), count, outcomes, len(events), subs)
}

// TestTracingOff checks that tracing stays off, with the no-op provider,
// nothing exported and no traceparent on the events, without an endpoint
// and when the standard variables turn it off with one.
func TestTracingOff(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
	}{
		{"no endpoint", map[string]string{}},
		{"sdk disabled", map[string]string{"OTEL_SDK_DISABLED": "true"}},
		{"exporter none", map[string]string{"OTEL_TRACES_EXPORTER": "none"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := &receiver{}
			collector := httptest.NewServer(rc)
			defer collector.Close()
			endpoint := collector.URL
			if len(tt.env) == 0 {
				endpoint = ""
			}
			cleanOTEL(t)
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			a := tracedApp(t, dbtest.NewURL(t), "towow", false, "")
			defer a.Close()
			if a.Tracing.Enabled() {
				t.Fatal("tracing on")
			}
			if _, ok := a.Tracing.TracerProvider().(noop.TracerProvider); !ok {
				t.Errorf("provider %T, want the no-op one", a.Tracing.TracerProvider())
			}
			srv := httptest.NewServer(a.Handler())
			defer srv.Close()
			demandID := submit(t, srv.URL)
			waitNegotiation(t, a, demandID)
			events, err := eventstore.ReadEvery(t.Context(), a.Store, 0, eventstore.Filter{CorrelationID: demandID})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range events {
				if e.Metadata.TraceParent != "" {
					t.Fatalf("event %s carries traceparent %q with tracing off", e.Type, e.Metadata.TraceParent)
				}
			}
			srv.Close()
			a.Close()
			if spans, requests := rc.all(); requests != 0 || len(spans) != 0 {
				t.Errorf("tracing off exported %d requests, %d spans", requests, len(spans))
			}
		})
	}
}

// BenchmarkSubmitTracing measures one POST /api/v1/demand/submit (the
// request, the command's transaction and its jobs) on an idle App, with
// tracing off and on (spans batched to an in-memory exporter).
func BenchmarkSubmitTracing(b *testing.B) {
	for _, bc := range []struct {
		name string
		cfg  tracing.Config
	}{
		{"off", tracing.Config{}},
		{"on", tracing.Config{Enabled: true, Exporter: tracetest.NewInMemoryExporter()}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			a, err := app.New(b.Context(), app.Config{DatabaseURL: dbtest.NewURL(b), Idle: true, Tracing: bc.cfg,
				LLM: llm.Config{Provider: builtin.New()}})
			if err != nil {
				b.Fatal(err)
			}
			defer a.Close()
			srv := httptest.NewServer(a.Handler())
			defer srv.Close()
			body := `{"raw_input":"我想在北京办一场AI主题聚会，需要场地和嘉宾","user_id":"user_alice"}`
			b.ReportAllocs()
			for b.Loop() {
				resp, err := http.Post(srv.URL+"/api/v1/demand/submit", "application/json", strings.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusAccepted {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}
