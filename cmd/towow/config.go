package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/netip"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/towow/towow/api"
	"github.com/towow/towow/domain/negotiation"
	"github.com/towow/towow/domain/workflow"
	"github.com/towow/towow/identity"
	"github.com/towow/towow/internal/logctx"
	"github.com/towow/towow/internal/tracing"
	"github.com/towow/towow/jobs"
	"github.com/towow/towow/llm"
	"github.com/towow/towow/negotiate"
	"github.com/towow/towow/presence"
)

// The defaults of the settings this package owns; the others are the
// write side's (negotiate, jobs, presence), the LLM client's and the
// domain's exported defaults. The default column of the table below (and
// so of --help and of the configuration table in docs/operations.md) is
// built from them.
const (
	defaultAddr     = "127.0.0.1:8080"
	defaultDataDir  = ".towow"
	defaultLLM      = "builtin"
	defaultLogLevel = "info"

	defaultUserRPS            = 20
	defaultUserDemandsPerHour = 30
	defaultUserTokensPerDay   = 2_000_000
	defaultTreeTokenBudget    = 200_000
)

var defaultRules = negotiation.DefaultRules()

// dur, secs and num write a default as the table shows it.
func dur(d time.Duration) string {
	if d%time.Minute == 0 {
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

func secs(n int) string { return strconv.Itoa(n) + "s" }

func num[T ~int | ~uint32](n T) string { return strconv.FormatInt(int64(n), 10) }

// envVar documents one environment variable. The configuration table of
// docs/operations.md is checked against this list by TestReadmeConfigTable.
type envVar struct {
	Name    string
	Default string
	Usage   string
}

// envVars is every environment variable towow reads.
var envVars = []envVar{
	{"DATABASE_URL", "(unset: embedded cluster)", "PostgreSQL connection URL. When unset, towow runs a private cluster in $TOWOW_DATA_DIR/pg from the system's PostgreSQL binaries."},
	{"TOWOW_DATA_DIR", "./" + defaultDataDir, "Folder for the embedded cluster (pg/, pg.password, pg.port, pg.log)."},
	{"TOWOW_ADDR", defaultAddr, "HTTP listen address of `towow serve`."},
	{"TOWOW_TLS_CERT", "(unset: plain HTTP)", "PEM certificate (chain) file: with TOWOW_TLS_KEY, `towow serve` speaks HTTPS only, with HTTP/2, TLS 1.2 and 1.3 and forward-secret AEAD ciphers; a renewed file is picked up within 30 s, without a restart."},
	{"TOWOW_TLS_KEY", "(unset)", "PEM private key file of TOWOW_TLS_CERT."},
	{"TOWOW_TRUSTED_PROXIES", "(unset: none)", "Comma-separated addresses or CIDR ranges of reverse proxies (e.g. 127.0.0.1,10.0.0.0/8) whose X-Forwarded-For, X-Forwarded-Proto and X-Forwarded-Host are believed: the client's address (sign-in limits, logs), HTTPS (Secure cookies) and the host. From anyone else those headers are ignored."},
	{"TOWOW_BODY_TIMEOUT", dur(api.DefaultBodyTimeout), "Longest a client may take to send a request's body, from the end of its headers; a slower one is answered 408 (TOWOW_REQUEST_005) and disconnected. 0 or less: no limit."},
	{"CORS_ORIGINS", "(unset: no CORS)", "Comma-separated browser origins allowed to call the API, e.g. http://localhost:5173; * allows any."},
	{"TOWOW_METRICS_ADDR", "(unset: none)", "`towow worker` only: address where it serves GET /metrics, /healthz and /readyz, e.g. 127.0.0.1:9091 (`towow serve` serves them on TOWOW_ADDR)."},
	{"TOWOW_ADMIN_TOKEN", "(unset: random, printed at start)", "Bearer token of the operator endpoints (agent directory writes, rebuilds, River UI at /riverui/); at least 16 characters. When unset, `towow serve` draws one and prints it once."},
	{"TOWOW_OIDC_ISSUER", "(unset: local mode)", "OpenID Connect issuer URL: the API takes its ID tokens as Authorization: Bearer (verified against its discovery document and keys) and the console signs in with it. Unset: local mode, where the console asks for a name and `towow token --user NAME` mints API tokens, signed by $TOWOW_DATA_DIR/signing-key.pem."},
	{"TOWOW_OIDC_AUDIENCE", "(TOWOW_OIDC_CLIENT_ID)", "The aud the API's bearer tokens must carry."},
	{"TOWOW_OIDC_CLIENT_ID", "(unset: no console sign-in)", "The console's OAuth client id at the issuer (authorization code flow with PKCE; redirect URI http(s)://<host>/auth/callback)."},
	{"TOWOW_OIDC_CLIENT_SECRET", "(unset: a public client)", "The console's client secret, if the issuer gave it one."},
	{"TOWOW_ALLOW_REMOTE", "(unset: loopback only)", "Local mode only: 1 lets `towow serve` listen on an address other people can reach (anyone who can reach it signs in as any name they type)."},
	{"TOWOW_USER_RPS", num(defaultUserRPS), "Requests a second one signed-in user (or external agent) may make, with bursts of twice as many; more get 429 TOWOW_LIMIT_001 with Retry-After. 0: no limit. The admin token is not limited."},
	{"TOWOW_USER_DEMANDS_PER_HOUR", num(defaultUserDemandsPerHour), "Negotiations (demands, clarifications, forks) one user may start an hour; more get 429 TOWOW_LIMIT_002. 0: no limit."},
	{"TOWOW_USER_TOKENS_PER_DAY", num(defaultUserTokensPerDay), "LLM tokens one user's negotiations and workflow conversations may spend in 24 hours (counted from the recorded calls); past it, new demands and messages get 429 TOWOW_LIMIT_003. 0: no limit."},
	{"TOWOW_TREE_TOKEN_BUDGET", num(defaultTreeTokenBudget), "LLM tokens one negotiation tree may spend before it opens sub-negotiations: prompt 8's decision keeps only the sub-negotiations that what is left pays for, at its estimate each, and records why (budget in the decision). 0: no budget."},
	{"TOWOW_LOG_LEVEL", defaultLogLevel, "Log level: debug, info, warn or error."},
	{"TOWOW_LLM", defaultLLM, "LLM provider: builtin (offline simulation), anthropic or openai (any OpenAI-compatible server)."},
	{"TOWOW_LLM_START_DEGRADED", "(unset: 0)", "1 lets `towow serve` start although the LLM provider refuses the key at its start-up check (every call then uses its fallback, and /readyz says llm: unauthorized)."},
	{"TOWOW_LLM_REQUIRED", "(unset: 0)", "1 makes /readyz answer 503 while the LLM provider refuses the key (llm: unauthorized)."},
	{"LLM_MODEL", "(provider default)", "Model name; anthropic defaults to claude-sonnet-4-5-20250929, openai needs one (e.g. qwen2.5:7b on Ollama)."},
	{"ANTHROPIC_API_KEY", "(unset)", "API key for TOWOW_LLM=anthropic (required: without it nothing starts)."},
	{"ANTHROPIC_BASE_URL", "(SDK default)", "Endpoint for TOWOW_LLM=anthropic (a proxy or gateway)."},
	{"OPENAI_API_KEY", "(unset)", "API key for TOWOW_LLM=openai (local servers usually need none)."},
	{"OPENAI_BASE_URL", "(SDK default)", "API root for TOWOW_LLM=openai, e.g. http://localhost:11434/v1 for Ollama."},
	{"LLM_TIMEOUT", dur(llm.DefaultTimeout), "Timeout of one LLM call; a call that times out uses the prompt's fallback."},
	{"TOWOW_BUILTIN_LATENCY", "0s", "The builtin brain answers after about this long (each wait 0.5x-1.5x), as a model would: live demos and crash tests. Under 2/3 of LLM_TIMEOUT."},
	{"LLM_RETRY_BUDGET", dur(llm.DefaultRetryBudget) + " (2 × LLM_TIMEOUT)", "Longest one LLM call may take with its retries: a retryable failure (429, 5xx, 529, a dropped connection, a timed-out attempt) is repeated with backoff while it lasts; 0 or less: no retries."},
	{"LLM_FAILURE_THRESHOLD", num(llm.DefaultFailureThreshold), "Consecutive LLM failures that open the circuit breaker."},
	{"LLM_RECOVERY_TIMEOUT", dur(llm.DefaultRecoveryTimeout), "How long the breaker stays open before one probe call."},
	{"LLM_OUTAGE_BUDGET", dur(llm.DefaultOutageBudget), "How long steps wait out an LLM provider that is down (breaker open, 5xx, 429, 529, timeouts) before they use their fallbacks; meanwhile they are snoozed and the negotiation's timeouts are moved on by the outage. 0: fall back at once."},
	{"TOWOW_MAX_ROUNDS", num(defaultRules.MaxRounds), "Negotiation rounds before a partial agreement is force-finalized."},
	{"TOWOW_OFFER_TIMEOUT", secs(defaultRules.OfferTimeoutSeconds), "Offer collection window; then the channel goes on with the offers that arrived."},
	{"TOWOW_FEEDBACK_TIMEOUT", secs(defaultRules.FeedbackTimeoutSeconds), "Feedback window per round; a missing feedback counts as accept."},
	{"TOWOW_STUCK_TIMEOUT", secs(defaultRules.StuckTimeoutSeconds), "A channel still not finished after this long fails as stuck."},
	{"TOWOW_MAX_DEPTH", num(defaultRules.MaxDepth), "Sub-negotiation depth: gaps spawn sub-negotiations while a channel's depth is below it."},
	{"TOWOW_MAX_CANDIDATES", num(negotiate.DefaultMaxCandidates), "Most agents smart filtering invites to one channel."},
	{"TOWOW_SHORTLIST", num(negotiate.DefaultShortlist), "Most profiles the filter's SQL stage hands to prompt 2, spread over the demand's needs."},
	{"TOWOW_WORKERS", num(jobs.DefaultWorkers), "Negotiation steps (River jobs) run at once by this process."},
	{"TOWOW_JOB_TIMEOUT", dur(jobs.DefaultJobTimeout), "Longest a negotiation step may run before River cancels and retries it."},
	{"TOWOW_JOB_RESCUE_AFTER", dur(jobs.DefaultRescueAfter), "How long a step may stay claimed before River retries it elsewhere (more than TOWOW_JOB_TIMEOUT): the backstop for a step whose process hangs. A step of a process that died is retried within seconds: every working process holds a liveness lock in PostgreSQL, and the others sweep for steps whose worker lost it."},
	{"TOWOW_AGENT_OFFLINE_AFTER", dur(presence.DefaultOfflineAfter), "An external agent comes online (towow.agent.online) with its first request and goes offline (towow.agent.offline) when it has made none for this long."},
	{"TOWOW_HTTP_ALLOW", "(unset: none)", "Hosts a workflow's http nodes may POST to, comma-separated: host, host:port or *.domain (e.g. hooks.example.com,127.0.0.1:9000). An http node to any other host is refused by the Coordinator."},
	{"TOWOW_TASKS", "simulate", "Who does a workflow's tasks assigned to twins: simulate (the twin answers the task prompt in its person's place, and the result says simulated) or people (the task waits for its person's external agent to report, until its timeout)."},
	{"TOWOW_DECISION_RATE_LIMIT", num(workflow.DefaultDecisionRateLimit), "Decisions one actor may make on a workflow per minute; more are refused by the Coordinator (rule rate_limit)."},
	{"TOWOW_PROFILES", "(embedded data/mock_profiles.json)", "Agent profiles loaded (idempotently) at start: a JSON file path, or none."},
	{"GOGC", "400 (Go's own: 100)", "Go's garbage-collector target: how far the heap may grow over what is live before a collection, in percent; off: never. towow sets 400 when it is unset: fewer collections for more memory (`bench negotiate`: about 10% more negotiations a second, the process's peak RSS about twice as high). GOMEMLIMIT (Go's too) caps the heap."},
	{"OTEL_EXPORTER_OTLP_ENDPOINT", "(unset: tracing off)", "OTLP/HTTP collector that turns OpenTelemetry tracing on, e.g. http://localhost:4318 (Jaeger): spans of HTTP requests, River jobs, database and LLM calls, one trace per negotiation tree. The other OTEL_* variables work too (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, _HEADERS, OTEL_RESOURCE_ATTRIBUTES, OTEL_SDK_DISABLED)."},
	{"OTEL_SERVICE_NAME", tracing.DefaultServiceName, "service.name of the spans."},
	{"OTEL_TRACES_SAMPLER", "parentbased_always_on", "Sampler of the traces: " + strings.Join(tracing.Samplers, ", ") + "; OTEL_TRACES_SAMPLER_ARG is the ratio (e.g. 0.1)."},
	{"TOWOW_TEST_DATABASE_URL", "(unset: embedded test cluster)", "Tests only: a server on which tests may create databases. When unset, tests use an embedded cluster in .towow/testpg."},
}

// config is the resolved environment.
type config struct {
	DatabaseURL string
	DataDir     string
	Addr        string
	BodyTimeout time.Duration // negative: none
	// TLSCert and TLSKey are the HTTPS key pair's files (empty: HTTP).
	TLSCert, TLSKey string
	// TrustedProxies are the reverse proxies whose X-Forwarded-* count.
	TrustedProxies []netip.Prefix
	CORSOrigins    []string
	AdminToken     string
	MetricsAddr    string
	// OIDC is the identity provider (Issuer empty: local mode).
	OIDC identity.OIDCConfig
	// AllowRemote lets local mode listen on a non-loopback address.
	AllowRemote bool
	// LLMStartDegraded lets serve start although the provider refuses the
	// key; LLMRequired makes /readyz not ready while it does.
	LLMStartDegraded, LLMRequired bool
	// Limits are the per-user limits; TreeTokenBudget bounds a
	// negotiation tree's sub-negotiations.
	Limits          api.Limits
	TreeTokenBudget int
	// PeopleDoTasks: TOWOW_TASKS=people.
	PeopleDoTasks bool
	LogLevel      slog.Level

	LLM              string
	LLMModel         string
	AnthropicKey     string
	AnthropicURL     string
	OpenAIKey        string
	OpenAIURL        string
	LLMTimeout       time.Duration
	RetryBudget      time.Duration // negative: no retries
	FailureThreshold int
	RecoveryTimeout  time.Duration
	OutageBudget     time.Duration // 0: no waiting
	// builtinLatency makes the builtin brain wait this long before each
	// answer, as a real model would (TOWOW_BUILTIN_LATENCY, or the
	// benchmarks' -llm-latency).
	builtinLatency time.Duration
	// builtinExact makes every wait builtinLatency exactly (benchmarks).
	builtinExact bool

	Rules         negotiation.Rules
	MaxCandidates int
	Shortlist     int
	Workers       int
	JobTimeout    time.Duration
	RescueAfter   time.Duration
	// OfflineAfter is how long an external agent may stay silent before
	// it is taken offline.
	OfflineAfter time.Duration
	Profiles     string
	// HTTPAllow and DecisionRateLimit configure the workflows' Coordinator.
	HTTPAllow         []string
	DecisionRateLimit int
	// Tracing is read from the OTEL_* variables.
	Tracing tracing.Config
}

func loadConfig(getenv func(string) string) (config, error) {
	c := config{
		DatabaseURL: getenv("DATABASE_URL"),
		DataDir:     orDefault(getenv("TOWOW_DATA_DIR"), defaultDataDir),
		Addr:        orDefault(getenv("TOWOW_ADDR"), defaultAddr),
	}
	for _, o := range strings.Split(getenv("CORS_ORIGINS"), ",") {
		o = strings.TrimRight(strings.TrimSpace(o), "/")
		if o == "" {
			continue
		}
		if o != "*" && !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
			return c, fmt.Errorf("CORS_ORIGINS: %q is not an origin (want e.g. http://localhost:5173, or *)", o)
		}
		c.CORSOrigins = append(c.CORSOrigins, o)
	}
	c.MetricsAddr = getenv("TOWOW_METRICS_ADDR")
	c.OIDC = identity.OIDCConfig{Issuer: strings.TrimSpace(getenv("TOWOW_OIDC_ISSUER")), ClientID: getenv("TOWOW_OIDC_CLIENT_ID"),
		ClientSecret: getenv("TOWOW_OIDC_CLIENT_SECRET")}
	c.OIDC.Audience = orDefault(getenv("TOWOW_OIDC_AUDIENCE"), c.OIDC.ClientID)
	if c.OIDC.Issuer != "" && c.OIDC.Audience == "" {
		return c, fmt.Errorf("TOWOW_OIDC_ISSUER needs TOWOW_OIDC_AUDIENCE (or TOWOW_OIDC_CLIENT_ID): the aud its tokens must carry")
	}
	switch v := strings.TrimSpace(getenv("TOWOW_ALLOW_REMOTE")); v {
	case "", "0", "false":
	case "1", "true":
		c.AllowRemote = true
	default:
		return c, fmt.Errorf("TOWOW_ALLOW_REMOTE=%q: want 1 or 0", v)
	}
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"TOWOW_LLM_START_DEGRADED", &c.LLMStartDegraded}, {"TOWOW_LLM_REQUIRED", &c.LLMRequired}} {
		switch v := strings.TrimSpace(getenv(b.name)); v {
		case "", "0", "false":
		case "1", "true":
			*b.dst = true
		default:
			return c, fmt.Errorf("%s=%q: want 1 or 0", b.name, v)
		}
	}
	c.AdminToken = getenv("TOWOW_ADMIN_TOKEN")
	if c.AdminToken != "" && (len(c.AdminToken) < 16 || strings.ContainsAny(c.AdminToken, " \t\r\n")) {
		return c, fmt.Errorf("TOWOW_ADMIN_TOKEN: want at least 16 characters and no white space")
	}
	if err := c.LogLevel.UnmarshalText([]byte(orDefault(getenv("TOWOW_LOG_LEVEL"), defaultLogLevel))); err != nil {
		return c, fmt.Errorf("TOWOW_LOG_LEVEL=%q: want debug, info, warn or error", getenv("TOWOW_LOG_LEVEL"))
	}
	c.LLM = orDefault(getenv("TOWOW_LLM"), defaultLLM)
	switch c.LLM {
	case "builtin", "anthropic", "openai":
	default:
		return c, fmt.Errorf("TOWOW_LLM=%q: want builtin, anthropic or openai", c.LLM)
	}
	c.LLMModel = getenv("LLM_MODEL")
	c.AnthropicKey, c.AnthropicURL = getenv("ANTHROPIC_API_KEY"), getenv("ANTHROPIC_BASE_URL")
	c.OpenAIKey, c.OpenAIURL = getenv("OPENAI_API_KEY"), getenv("OPENAI_BASE_URL")
	if c.LLM == "anthropic" && strings.TrimSpace(c.AnthropicKey) == "" {
		return c, fmt.Errorf("TOWOW_LLM=anthropic needs ANTHROPIC_API_KEY (or TOWOW_LLM=builtin to run offline)")
	}
	if c.LLM == "openai" && c.LLMModel == "" {
		return c, fmt.Errorf("TOWOW_LLM=openai needs LLM_MODEL (e.g. LLM_MODEL=qwen2.5:7b for Ollama)")
	}
	c.Rules = negotiation.DefaultRules()
	p := parser{getenv: getenv}
	c.LLMTimeout = p.duration("LLM_TIMEOUT", llm.DefaultTimeout)
	c.TLSCert, c.TLSKey = strings.TrimSpace(getenv("TOWOW_TLS_CERT")), strings.TrimSpace(getenv("TOWOW_TLS_KEY"))
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return c, errors.New("TOWOW_TLS_CERT and TOWOW_TLS_KEY go together: set both for HTTPS, or neither")
	}
	for _, v := range strings.Split(getenv("TOWOW_TRUSTED_PROXIES"), ",") {
		if v = strings.TrimSpace(v); v == "" {
			continue
		}
		prefix, err := netip.ParsePrefix(v)
		if err != nil {
			addr, aerr := netip.ParseAddr(v)
			if aerr != nil {
				return c, fmt.Errorf("TOWOW_TRUSTED_PROXIES: %q is neither an address nor a CIDR range (e.g. 127.0.0.1 or 10.0.0.0/8)", v)
			}
			prefix = netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())
		}
		c.TrustedProxies = append(c.TrustedProxies, prefix.Masked())
	}
	if v := strings.TrimSpace(getenv("TOWOW_BODY_TIMEOUT")); noneDuration(v) {
		c.BodyTimeout = -1 // no limit
	} else {
		c.BodyTimeout = p.duration("TOWOW_BODY_TIMEOUT", api.DefaultBodyTimeout)
	}
	c.RetryBudget = 2 * c.LLMTimeout
	if v := strings.TrimSpace(getenv("LLM_RETRY_BUDGET")); noneDuration(v) {
		c.RetryBudget = -1 // no retries
	} else {
		c.RetryBudget = p.duration("LLM_RETRY_BUDGET", c.RetryBudget)
	}
	if strings.TrimSpace(getenv("TOWOW_BUILTIN_LATENCY")) != "" {
		c.builtinLatency = p.duration("TOWOW_BUILTIN_LATENCY", 0)
	}
	c.FailureThreshold = p.count("LLM_FAILURE_THRESHOLD", llm.DefaultFailureThreshold, 1)
	c.RecoveryTimeout = p.duration("LLM_RECOVERY_TIMEOUT", llm.DefaultRecoveryTimeout)
	if v := strings.TrimSpace(getenv("LLM_OUTAGE_BUDGET")); noneDuration(v) {
		c.OutageBudget = 0
	} else {
		c.OutageBudget = p.duration("LLM_OUTAGE_BUDGET", llm.DefaultOutageBudget)
	}
	c.Rules.MaxRounds = p.count("TOWOW_MAX_ROUNDS", c.Rules.MaxRounds, 1)
	c.Rules.OfferTimeoutSeconds = p.seconds("TOWOW_OFFER_TIMEOUT", c.Rules.OfferTimeoutSeconds)
	c.Rules.FeedbackTimeoutSeconds = p.seconds("TOWOW_FEEDBACK_TIMEOUT", c.Rules.FeedbackTimeoutSeconds)
	c.Rules.StuckTimeoutSeconds = p.seconds("TOWOW_STUCK_TIMEOUT", c.Rules.StuckTimeoutSeconds)
	c.Rules.MaxDepth = p.count("TOWOW_MAX_DEPTH", c.Rules.MaxDepth, 0)
	c.MaxCandidates = p.count("TOWOW_MAX_CANDIDATES", negotiate.DefaultMaxCandidates, 1)
	c.Shortlist = p.count("TOWOW_SHORTLIST", negotiate.DefaultShortlist, 1)
	c.Workers = p.count("TOWOW_WORKERS", jobs.DefaultWorkers, 1)
	c.JobTimeout = p.duration("TOWOW_JOB_TIMEOUT", jobs.DefaultJobTimeout)
	c.RescueAfter = p.duration("TOWOW_JOB_RESCUE_AFTER", jobs.DefaultRescueAfter)
	if p.err == nil && c.RescueAfter <= c.JobTimeout {
		p.fail(fmt.Errorf("TOWOW_JOB_RESCUE_AFTER (%s) must exceed TOWOW_JOB_TIMEOUT (%s)", c.RescueAfter, c.JobTimeout))
	}
	if p.err == nil && c.builtinLatency*3/2 >= c.LLMTimeout {
		p.fail(fmt.Errorf("TOWOW_BUILTIN_LATENCY (%s) must stay under 2/3 of LLM_TIMEOUT (%s)", c.builtinLatency, c.LLMTimeout))
	}
	c.OfflineAfter = p.duration("TOWOW_AGENT_OFFLINE_AFTER", presence.DefaultOfflineAfter)
	switch v := strings.TrimSpace(getenv("TOWOW_TASKS")); v {
	case "", "simulate":
	case "people":
		c.PeopleDoTasks = true
	default:
		return c, fmt.Errorf("TOWOW_TASKS=%q: want simulate or people", v)
	}
	rps := p.count("TOWOW_USER_RPS", defaultUserRPS, 0)
	c.Limits = api.Limits{RequestsPerSecond: float64(rps), Burst: 2 * rps,
		DemandsPerHour: p.count("TOWOW_USER_DEMANDS_PER_HOUR", defaultUserDemandsPerHour, 0),
		TokensPerDay:   int64(p.count("TOWOW_USER_TOKENS_PER_DAY", defaultUserTokensPerDay, 0))}
	c.TreeTokenBudget = p.count("TOWOW_TREE_TOKEN_BUDGET", defaultTreeTokenBudget, 0)
	c.Profiles = getenv("TOWOW_PROFILES")
	var err error
	if c.Tracing, err = tracing.FromEnv(getenv); err != nil {
		return c, err
	}
	for _, h := range strings.Split(getenv("TOWOW_HTTP_ALLOW"), ",") {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			continue
		}
		if strings.ContainsAny(h, "/ ") || strings.HasPrefix(h, "*") && !strings.HasPrefix(h, "*.") {
			return c, fmt.Errorf("TOWOW_HTTP_ALLOW: %q is not a host (want host, host:port or *.domain)", h)
		}
		c.HTTPAllow = append(c.HTTPAllow, h)
	}
	c.DecisionRateLimit = p.count("TOWOW_DECISION_RATE_LIMIT", workflow.DefaultDecisionRateLimit, 1)
	if p.err != nil {
		return c, p.err
	}
	return c, nil
}

// parser reads typed variables, keeping the first error.
type parser struct {
	getenv func(string) string
	err    error
}

// duration accepts a Go duration ("10s", "1m30s") or a number of seconds.
func (p *parser) duration(name string, def time.Duration) time.Duration {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 {
		return time.Duration(n * float64(time.Second))
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		p.fail(fmt.Errorf("%s=%q: want a positive duration such as 10s or 2m", name, v))
		return def
	}
	return d
}

// seconds is duration rounded up to whole seconds (channel rules are kept
// in seconds).
func (p *parser) seconds(name string, def int) int {
	d := p.duration(name, time.Duration(def)*time.Second)
	return int((d + time.Second - 1) / time.Second)
}

func (p *parser) count(name string, def, minimum int) int {
	v := strings.TrimSpace(p.getenv(name))
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < minimum {
		p.fail(fmt.Errorf("%s=%q: want a whole number of at least %d", name, v, minimum))
		return def
	}
	return n
}

func (p *parser) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// noneDuration reports whether v is a duration of zero or less ("0",
// "0s", "-1s"): a setting turned off.
func noneDuration(v string) bool {
	if n, err := strconv.ParseFloat(v, 64); err == nil {
		return n <= 0
	}
	d, err := time.ParseDuration(v)
	return err == nil && d <= 0
}

func orDefault(v, def string) string {
	if strings.TrimSpace(v) == "" {
		return def
	}
	return v
}

func (c config) logger(w io.Writer) *slog.Logger {
	return slog.New(logctx.NewHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: c.LogLevel})))
}

// quietLogger is for commands whose output is on stdout (demo, replay,
// bench): it logs warnings and errors only, unless TOWOW_LOG_LEVEL=debug.
func (c config) quietLogger(w io.Writer) *slog.Logger {
	level := max(c.LogLevel, slog.LevelWarn)
	if c.LogLevel < slog.LevelInfo {
		level = c.LogLevel
	}
	return slog.New(logctx.NewHandler(slog.NewTextHandler(w, &slog.HandlerOptions{Level: level})))
}

// writeEnvHelp prints the environment table for --help.
func writeEnvHelp(w io.Writer) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Environment:")
	for _, v := range envVars {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", v.Name, v.Default, v.Usage)
	}
	tw.Flush()
}
