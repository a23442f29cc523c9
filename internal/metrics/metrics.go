// Package metrics holds towow's Prometheus metrics and serves them at
// /metrics: LLM calls by prompt and outcome with their latency, the circuit
// breaker, negotiation outcomes, live SSE connections, read-model lag and
// River jobs by state.
package metrics

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/towow/towow/domain/event"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
)

// Metrics is one process's collectors, on a registry of its own.
type Metrics struct {
	reg          *prometheus.Registry
	llmCalls     *prometheus.CounterVec
	llmLatency   *prometheus.HistogramVec
	negotiations *prometheus.CounterVec
	rejected     *prometheus.CounterVec
	planSize     *prometheus.HistogramVec
	rounds       prometheus.Histogram
	coverage     prometheus.Histogram
	sse          prometheus.Gauge
	validated    *prometheus.CounterVec
	refused      *prometheus.CounterVec
	corrected    *prometheus.CounterVec
	workflows    *prometheus.CounterVec
	canvas       *prometheus.CounterVec
	openings     prometheus.Counter

	// needs holds each understood demand's needs until its negotiation
	// completes (at most maxPending; beyond that it starts again).
	mu    sync.Mutex
	needs map[string][]negotiation.Need
}

// maxPending bounds the needs remembered for negotiations under way.
const maxPending = 10000

// Sources are the live values read at each scrape.
type Sources struct {
	// BreakerOpen reports whether the LLM circuit breaker is open.
	BreakerOpen func() bool
	// Lag reports each read model's lag in events.
	Lag func(ctx context.Context) (map[string]int64, error)
	// Pool is the database holding River's job table.
	Pool *pgxpool.Pool
}

// New registers the collectors fed by calls (LLMCall, Observe, Stream*);
// Watch adds the ones read at scrape time.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), needs: map[string][]negotiation.Need{}}
	m.llmCalls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "llm_call_total",
		Help: "LLM calls by prompt key and outcome (ok, error, timeout, breaker_open, parse_error)."}, []string{"prompt", "outcome"})
	m.llmLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "llm_call_duration_seconds",
		Help: "LLM call latency by prompt key.", Buckets: []float64{.005, .025, .1, .25, .5, 1, 2.5, 5, 10, 20}}, []string{"prompt"})
	m.negotiations = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "negotiation_outcomes_total",
		Help: "Negotiations (root and sub) completed by this process's workers, by terminal status."}, []string{"status"})
	m.rejected = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "demand_rejections_total",
		Help: "Demands rejected before negotiating, by reason (unclear, no_match)."}, []string{"reason"})
	m.planSize = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "negotiation_plan_size",
		Help:    "Per agreed negotiation tree: assignments, alternates and gaps left in its plan (merged with its sub-negotiations).",
		Buckets: []float64{0, 1, 2, 3, 5, 8, 13, 20}}, []string{"part"})
	m.rounds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "negotiation_rounds",
		Help: "Rounds an agreed negotiation (root or sub) took.", Buckets: []float64{1, 2, 3, 4, 5}})
	m.coverage = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "negotiation_need_coverage",
		Help:    "Per agreed negotiation (root or sub): the share of its needs' places the plan fills (merged with its sub-negotiations).",
		Buckets: []float64{0, .25, .5, .75, .9, .999, 1}})
	m.sse = prometheus.NewGauge(prometheus.GaugeOpts{Name: "sse_active_connections", Help: "Open server-sent-event streams."})
	m.validated = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "decision_validations_total",
		Help: "Decisions on workflows the Coordinator let through, by decision type."}, []string{"decision_type"})
	m.refused = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "decision_rejections_total",
		Help: "Decisions on workflows the Coordinator refused, by the rule that refused them."}, []string{"rule"})
	m.corrected = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "decision_corrections_total",
		Help: "Corrections the Coordinator made to decisions it let through, by rule."}, []string{"rule"})
	m.workflows = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "workflow_outcomes_total",
		Help: "Workflows ended by this process's steps, by status (completed, failed, cancelled)."}, []string{"status"})
	m.canvas = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "canvas_batches_total",
		Help: "Canvas change batches answered by this process, by outcome (applied, repeated, conflict, locked, rejected)."}, []string{"outcome"})
	m.openings = prometheus.NewCounter(prometheus.CounterOpts{Name: "circuit_breaker_openings_total",
		Help: "Times the LLM circuit breaker opened in this process (circuit_breaker_open is whether it is open now)."})
	m.reg.MustRegister(m.llmCalls, m.llmLatency, m.negotiations, m.rejected, m.planSize, m.rounds, m.coverage, m.sse,
		m.validated, m.refused, m.corrected, m.workflows, m.canvas, m.openings,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Watch registers the collectors read at each scrape from src (call it
// once).
func (m *Metrics) Watch(src Sources) {
	if src.BreakerOpen != nil {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "circuit_breaker_open",
			Help: "1 while the LLM circuit breaker is open."}, func() float64 {
			if src.BreakerOpen() {
				return 1
			}
			return 0
		}))
	}
	if src.Lag != nil || src.Pool != nil {
		m.reg.MustRegister(&dbCollector{src: src})
	}
}

// LLMCall records one LLM call (llm.Config.OnCall).
func (m *Metrics) LLMCall(c event.LLMCall) {
	m.llmCalls.WithLabelValues(c.PromptKey, c.Outcome).Inc()
	m.llmLatency.WithLabelValues(c.PromptKey).Observe(float64(c.LatencyMS) / 1000)
}

// Observe counts completed negotiations and rejected demands among
// committed events, with the size of each agreed plan, its rounds and its
// need coverage (the unit of work's Observe hook, app.WriteConfig.Observe); the full quality scores are served by
// GET /api/v1/demands/{demand_id}/quality and /api/v1/quality.
func (m *Metrics) Observe(p event.Payload) {
	switch e := p.(type) {
	case *negotiation.DemandUnderstood:
		m.mu.Lock()
		if len(m.needs) >= maxPending {
			clear(m.needs)
		}
		m.needs[e.DemandID] = negotiation.NeedsOf(e.Understanding())
		m.mu.Unlock()
	case *negotiation.NegotiationCompleted:
		m.negotiations.WithLabelValues(string(e.Status)).Inc()
		m.mu.Lock()
		needs := m.needs[e.DemandID]
		delete(m.needs, e.DemandID)
		m.mu.Unlock()
		plan := e.MergedPlan
		if plan == nil {
			plan = e.FinalProposal
		}
		if plan != nil && e.Status != negotiation.ChannelStatusFailed {
			if len(needs) > 0 {
				m.coverage.Observe(negotiation.Coverage(needs, plan.Assignments))
			}
			m.planSize.WithLabelValues("assignments").Observe(float64(len(plan.Assignments)))
			m.planSize.WithLabelValues("alternates").Observe(float64(len(plan.Alternates)))
			m.planSize.WithLabelValues("gaps").Observe(float64(len(plan.Gaps)))
			m.rounds.Observe(float64(e.RoundsTaken))
		}
	case *negotiation.DemandRejected:
		m.rejected.WithLabelValues(e.Reason).Inc()
	case *workflow.DecisionValidated:
		m.validated.WithLabelValues(string(e.Decision.Type)).Inc()
		for _, c := range e.Corrections {
			m.corrected.WithLabelValues(c.Rule).Inc()
		}
	case *workflow.DecisionRejected:
		m.refused.WithLabelValues(e.Rule).Inc()
	case *workflow.WorkflowCompleted:
		m.workflows.WithLabelValues(string(workflow.WorkflowStatusCompleted)).Inc()
	case *workflow.WorkflowFailed:
		m.workflows.WithLabelValues(string(workflow.WorkflowStatusFailed)).Inc()
	case *workflow.WorkflowCancelled:
		m.workflows.WithLabelValues(string(workflow.WorkflowStatusCancelled)).Inc()
	}
}

// BreakerOpened counts one opening of the LLM circuit breaker
// (llm.Config.OnBreakerOpen).
func (m *Metrics) BreakerOpened() { m.openings.Inc() }

// CanvasBatch counts one canvas change batch by its outcome: applied,
// repeated, conflict (a stale version), locked (the workflow runs) or
// rejected (the Coordinator refused a change).
func (m *Metrics) CanvasBatch(outcome string) { m.canvas.WithLabelValues(outcome).Inc() }

// StreamOpened and StreamClosed track live SSE connections.
func (m *Metrics) StreamOpened() { m.sse.Inc() }

// StreamClosed is StreamOpened's counterpart.
func (m *Metrics) StreamClosed() { m.sse.Dec() }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// dbCollector reads read-model lag and River's jobs by state at scrape time.
type dbCollector struct{ src Sources }

var (
	lagDesc  = prometheus.NewDesc("projection_lag_events", "Events each read model trails the event log by.", []string{"projection"}, nil)
	jobsDesc = prometheus.NewDesc("river_jobs", "River jobs by state.", []string{"state"}, nil)
)

func (c *dbCollector) Describe(ch chan<- *prometheus.Desc) { ch <- lagDesc; ch <- jobsDesc }

func (c *dbCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if c.src.Lag != nil {
		if lag, err := c.src.Lag(ctx); err == nil {
			for name, l := range lag {
				ch <- prometheus.MustNewConstMetric(lagDesc, prometheus.GaugeValue, float64(l), name)
			}
		}
	}
	if c.src.Pool != nil {
		jobs, err := RiverJobs(ctx, c.src.Pool)
		if err != nil {
			return
		}
		for state, n := range jobs {
			ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(n), state)
		}
	}
}

// RiverJobs counts River's jobs by state (lower case: available, running,
// completed, retryable, ...).
func RiverJobs(ctx context.Context, pool *pgxpool.Pool) (map[string]int64, error) {
	// River's own table: an operations query outside the ToWow schema, so
	// it is not in queries/.
	rows, err := pool.Query(ctx, "SELECT state::text, count(*) FROM river_job GROUP BY state")
	if err != nil {
		return nil, fmt.Errorf("river jobs: %w", err)
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var state string
		var n int64
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("river jobs: %w", err)
		}
		out[strings.ToLower(state)] = n
	}
	return out, rows.Err()
}
