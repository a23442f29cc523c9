-- The append itself (towow_append in migrations/00001_events.sql) is called
-- from eventstore/store.go without sqlc: sqlc v1.31 cannot infer the columns
-- of a set-returning function and would type each row as one interface{}.

-- name: StreamVersion :one
SELECT coalesce(max(stream_version), 0)::bigint AS version
FROM events
WHERE stream_id = @stream_id;

-- name: HeadPosition :one
SELECT coalesce(max(global_position), 0)::bigint AS position
FROM events;

-- name: ReadStreamForward :many
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE stream_id = @stream_id AND stream_version >= @from_version
ORDER BY stream_version
LIMIT @max_count;

-- name: ReadStreamBackward :many
-- The latest events of a stream, newest first.
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE stream_id = @stream_id
ORDER BY stream_version DESC
LIMIT @max_count;

-- name: ReadAll :many
-- Every optional filter is NULL (or empty) when unused. The event store runs
-- this query as an unnamed statement (eventstore/read.go, customPlans), so it
-- is planned with the actual values: unused filters fold away and the planner
-- picks the index of the filter that is set, instead of one generic plan.
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE global_position > @after_position
  AND (sqlc.narg('until_position')::bigint IS NULL OR global_position <= sqlc.narg('until_position')::bigint)
  AND (sqlc.narg('stream_id')::text IS NULL OR stream_id = sqlc.narg('stream_id')::text)
  AND (cardinality(@event_types::text[]) = 0 OR event_type = ANY(@event_types::text[]))
  AND (sqlc.narg('type_pattern')::text IS NULL OR event_type LIKE sqlc.narg('type_pattern')::text)
  AND (sqlc.narg('correlation_id')::text IS NULL OR metadata ->> 'correlation_id' = sqlc.narg('correlation_id')::text)
  AND (sqlc.narg('actor')::text IS NULL OR metadata ->> 'actor' = sqlc.narg('actor')::text)
  AND (sqlc.narg('principal')::text IS NULL OR coalesce(metadata ->> 'principal', 'system') = sqlc.narg('principal')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR recorded_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR recorded_at < sqlc.narg('until')::timestamptz)
ORDER BY global_position
LIMIT @max_count;

-- name: RecordedLLMAnswer :many
-- The answer of a negotiation tree's recorded LLM call with this prompt
-- and input hash (a fork replays the recorded answer instead of asking
-- again; an answer that did not parse then falls back again); the first
-- one, if any.
SELECT (metadata -> 'llm_call' ->> 'answer')::text AS answer
FROM events
WHERE metadata ->> 'correlation_id' = @demand_id::text
  AND metadata -> 'llm_call' ->> 'prompt_key' = @prompt_key::text
  AND metadata -> 'llm_call' ->> 'input_hash' = @input_hash::text
  AND coalesce(metadata -> 'llm_call' ->> 'answer', '') <> ''
ORDER BY global_position
LIMIT 1;
