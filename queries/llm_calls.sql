-- name: InsertLLMCall :exec
-- One event's metadata.llm_call; a replayed event is a no-op.
INSERT INTO llm_calls (position, event_id, event_type, stream_id, demand_id, actor, agent_id, prompt_key, provider,
                       model, latency_ms, input_tokens, output_tokens, outcome, fallback_used, error, recorded_at, attempts)
VALUES (@position, @event_id, @event_type, @stream_id, @demand_id, @actor, sqlc.narg('agent_id'), @prompt_key, @provider,
        @model, @latency_ms, @input_tokens, @output_tokens, @outcome, @fallback_used, @error, @recorded_at, sqlc.narg('attempts')::jsonb)
ON CONFLICT (position) DO NOTHING;

-- name: ListLLMCalls :many
-- Oldest first; after_position is the page cursor (0: the first page).
-- Every filter is optional (NULL: no filter); since/until bound recorded_at
-- to [since, until).
SELECT * FROM llm_calls
WHERE position > @after_position::bigint
  AND (sqlc.narg('prompt_key')::text IS NULL OR prompt_key = sqlc.narg('prompt_key')::text)
  AND (sqlc.narg('outcome')::text IS NULL OR outcome = sqlc.narg('outcome')::text)
  AND (sqlc.narg('provider')::text IS NULL OR provider = sqlc.narg('provider')::text)
  AND (sqlc.narg('demand_id')::text IS NULL OR demand_id = sqlc.narg('demand_id')::text)
  AND (sqlc.narg('agent_id')::text IS NULL OR agent_id = sqlc.narg('agent_id')::text)
  AND (sqlc.narg('fallback_used')::boolean IS NULL OR fallback_used = sqlc.narg('fallback_used')::boolean)
  AND (sqlc.narg('since')::timestamptz IS NULL OR recorded_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR recorded_at < sqlc.narg('until')::timestamptz)
ORDER BY position
LIMIT @max_count;

-- name: SummarizeLLMCalls :many
-- Per prompt, over every call ListLLMCalls' filters select (all pages):
-- calls, errors (any outcome but ok), fallbacks, and latency (mean and
-- continuous percentiles, in ms).
SELECT prompt_key,
       count(*)::bigint                                                    AS calls,
       (count(*) FILTER (WHERE outcome <> 'ok'))::bigint                   AS errors,
       (count(*) FILTER (WHERE fallback_used))::bigint                     AS fallbacks,
       avg(latency_ms)::float8                                             AS avg_latency_ms,
       (percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms))::float8  AS p50_latency_ms,
       (percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms))::float8 AS p95_latency_ms
FROM llm_calls
WHERE (sqlc.narg('prompt_key')::text IS NULL OR prompt_key = sqlc.narg('prompt_key')::text)
  AND (sqlc.narg('outcome')::text IS NULL OR outcome = sqlc.narg('outcome')::text)
  AND (sqlc.narg('provider')::text IS NULL OR provider = sqlc.narg('provider')::text)
  AND (sqlc.narg('demand_id')::text IS NULL OR demand_id = sqlc.narg('demand_id')::text)
  AND (sqlc.narg('agent_id')::text IS NULL OR agent_id = sqlc.narg('agent_id')::text)
  AND (sqlc.narg('fallback_used')::boolean IS NULL OR fallback_used = sqlc.narg('fallback_used')::boolean)
  AND (sqlc.narg('since')::timestamptz IS NULL OR recorded_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR recorded_at < sqlc.narg('until')::timestamptz)
GROUP BY prompt_key
ORDER BY prompt_key;

-- name: DeleteLLMCalls :exec
-- Rebuild: inside the rebuild's transaction, so readers keep the old rows
-- until it commits.
DELETE FROM llm_calls;

-- name: ChecksumLLMCalls :one
-- Row-for-row fingerprint (rebuild checks; towow projections rebuild).
SELECT count(*)::bigint AS row_count,
       coalesce(md5(string_agg(l::text, E'\n' ORDER BY l.position)), '')::text AS checksum
FROM llm_calls l;

-- name: RebuildLLMCalls :exec
-- The llm_calls read model folded in one statement (Rebuild's fast path):
-- the rows InsertLLMCall writes event by event, with the same defaults Go's
-- decoding of the metadata gives (absent or null: '', 0, false), which the
-- rebuild test checks row for row. A metadata llm_call that is absent or
-- JSON null is no call (a nil *event.LLMCall). The metadata is taken
-- apart once per event (jsonb_to_record): since a call's record carries
-- its answer, the metadata is often stored compressed out of line, and
-- every -> would decompress it again.
INSERT INTO llm_calls (position, event_id, event_type, stream_id, demand_id, actor, agent_id, prompt_key, provider,
                       model, latency_ms, input_tokens, output_tokens, outcome, fallback_used, error, recorded_at, attempts)
SELECT e.global_position,
       e.event_id,
       e.event_type::text,
       e.stream_id,
       coalesce(m.correlation_id, ''),
       coalesce(m.actor, ''),
       CASE WHEN starts_with(m.actor, 'agent:') THEN nullif(substr(m.actor, 7), '') END,
       coalesce(c.prompt_key, ''),
       coalesce(c.provider, ''),
       coalesce(c.model, ''),
       coalesce(c.latency_ms, 0),
       coalesce(c.input_tokens, 0),
       coalesce(c.output_tokens, 0),
       coalesce(c.outcome, ''),
       coalesce(c.fallback_used, false),
       coalesce(c.error, ''),
       e.recorded_at,
       CASE WHEN jsonb_typeof(c.attempts) = 'array' AND jsonb_array_length(c.attempts) > 0 THEN c.attempts END
FROM events e
CROSS JOIN LATERAL jsonb_to_record(e.metadata) AS m(correlation_id text, actor text, llm_call jsonb)
CROSS JOIN LATERAL jsonb_to_record(CASE WHEN jsonb_typeof(m.llm_call) = 'object' THEN m.llm_call END)
    AS c(prompt_key text, provider text, model text, latency_ms bigint, input_tokens int, output_tokens int,
         outcome text, fallback_used boolean, error text, attempts jsonb)
WHERE e.global_position <= @head_position
  AND jsonb_typeof(m.llm_call) = 'object';
