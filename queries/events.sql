-- The append itself (towow_append in migrations/00001_events.sql) is called
-- from eventstore/store.go without sqlc: sqlc v1.31 cannot infer the columns
-- of a set-returning function and would type each row as one interface{}.

-- name: StreamVersion :one
SELECT coalesce(max(stream_version), 0)::bigint AS version
FROM events
WHERE stream_id = @stream_id;

-- name: HeadPosition :one
-- The highest settled position: no event can commit below it any more
-- (towow_settled_below, migrations/00018_concurrent_appends.sql). The bound
-- is an InitPlan, so it is computed once per query, not once per row.
SELECT coalesce(max(global_position), 0)::bigint AS position
FROM events
WHERE global_position < (SELECT towow_settled_below());

-- name: Frontier :one
-- Where readers stand: every position below settled_below is final; latest
-- is the highest committed position, which a transaction still in flight
-- with an older id may hold above settled_below for a while.
SELECT (SELECT towow_settled_below())::bigint AS settled_below,
       coalesce((SELECT max(global_position) FROM events), 0)::bigint AS latest;

-- name: ReadStreamForward :many
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE stream_id = @stream_id AND stream_version >= @from_version
ORDER BY stream_version
LIMIT @max_count;

-- name: ReadStreamPayloads :many
-- A stream's payloads from @from_version on, with what decoding them
-- needs (their type and schema version) and nothing else: a fold reads
-- no metadata.
SELECT global_position, event_id, event_type, payload,
       coalesce((metadata ->> 'schema_version')::int, 0)::int AS schema_version
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
-- a filtered read as an unnamed statement (eventstore/read.go, customPlans),
-- so it is planned with the actual values: unused filters fold away and the
-- planner picks the index of the filter that is set, instead of one generic
-- plan. A read with no filter runs as a prepared statement: its one generic
-- plan, a walk of the position index from @after_position, serves every
-- cursor, so it is planned once per connection.
-- Every row carries the settled bound the query read under (and the highest
-- position committed, latest, which a subscription waits on when it lies above
-- the bound), and a query that finds no event still returns one row
-- (global_position 0) to carry them: two
-- queries may compute different bounds, the later one even a lower one (a
-- transaction of another database that ends between a query's snapshot and
-- its look at the running backends), so a reader may trust only the bound
-- of the read that returned its events. The bound is computed once per
-- query: a scalar subquery (an InitPlan) in a subquery the planner may not
-- pull up (OFFSET 0). Written as a plain call, the planner would copy the
-- call into the scan's condition and into every row returned, and run it
-- for each; pulled up, it would run twice.
SELECT b.settled_below::bigint AS settled_below,
       b.latest::bigint AS latest,
       coalesce(e.global_position, 0)::bigint AS global_position,
       coalesce(e.event_id, '00000000-0000-0000-0000-000000000000')::uuid AS event_id,
       coalesce(e.stream_id, '')::text AS stream_id,
       coalesce(e.stream_version, 0)::bigint AS stream_version,
       coalesce(e.event_type, '')::text AS event_type,
       coalesce(e.payload, '{}')::jsonb AS payload,
       coalesce(e.metadata, '{}')::jsonb AS metadata,
       coalesce(e.recorded_at, 'epoch')::timestamptz AS recorded_at
FROM (SELECT (SELECT towow_settled_below()) AS settled_below,
             (SELECT coalesce(max(global_position), 0) FROM events) AS latest
      OFFSET 0) b
LEFT JOIN LATERAL (
    SELECT ev.global_position, ev.event_id, ev.stream_id, ev.stream_version, ev.event_type, ev.payload, ev.metadata, ev.recorded_at
    FROM events ev
    WHERE ev.global_position > @after_position
      AND ev.global_position < b.settled_below
      AND (sqlc.narg('until_position')::bigint IS NULL OR ev.global_position <= sqlc.narg('until_position')::bigint)
      AND (sqlc.narg('stream_id')::text IS NULL OR ev.stream_id = sqlc.narg('stream_id')::text)
      AND (cardinality(@event_types::text[]) = 0 OR ev.event_type = ANY(@event_types::text[]))
      AND (sqlc.narg('type_pattern')::text IS NULL OR ev.event_type LIKE sqlc.narg('type_pattern')::text)
      AND (sqlc.narg('correlation_id')::text IS NULL OR ev.metadata ->> 'correlation_id' = sqlc.narg('correlation_id')::text)
      AND (sqlc.narg('actor')::text IS NULL OR ev.metadata ->> 'actor' = sqlc.narg('actor')::text)
      AND (sqlc.narg('principal')::text IS NULL OR coalesce(ev.metadata ->> 'principal', 'system') = sqlc.narg('principal')::text)
      AND (sqlc.narg('since')::timestamptz IS NULL OR ev.recorded_at >= sqlc.narg('since')::timestamptz)
      AND (sqlc.narg('until')::timestamptz IS NULL OR ev.recorded_at < sqlc.narg('until')::timestamptz)
    ORDER BY ev.global_position
    LIMIT @max_count
) e ON true
ORDER BY e.global_position;

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

-- name: AnnounceCommit :exec
-- Wakes every listener on the events channel (eventstore.NotifyChannel).
-- Sent in a transaction of its own after appends commit, never inside
-- one: see eventstore/announce.go.
SELECT pg_notify('towow_events', '');

-- name: CountEventsBetween :one
-- How many events lie in (after, until]: a read model's lag in events.
SELECT count(*)::bigint AS events
FROM events
WHERE global_position > @after_position AND global_position <= @until_position;

-- name: CountUnsettled :one
-- Committed events readers cannot reach yet: a write transaction of this
-- database with an older id is still open.
SELECT count(*)::bigint AS events
FROM events
WHERE global_position >= (SELECT towow_settled_below());

-- name: RebasePositions :one
-- Moves the position base up if the next position would not be above every
-- stored one (after a restore into another cluster); see
-- migrations/00018_concurrent_appends.sql.
SELECT towow_rebase_positions()::boolean AS rebased;

-- name: LatestPosition :one
-- The highest committed position, settled or not: whether anything was
-- written at all.
SELECT coalesce(max(global_position), 0)::bigint AS position
FROM events;

-- name: LoadEvents :exec
-- A bulk load of events (a benchmark's copies of trees), in order, with
-- positions its transaction takes: as many as it writes, in one call.
-- rows is a JSON array of {event_id, stream_id, stream_version,
-- event_type, payload, metadata}.
WITH taken AS (SELECT towow_take_positions(jsonb_array_length(@rows::jsonb))::bigint AS first)
INSERT INTO events (global_position, event_id, stream_id, stream_version, event_type, payload, metadata)
SELECT taken.first + r.ord - 1, (r.e ->> 'event_id')::uuid, r.e ->> 'stream_id', (r.e ->> 'stream_version')::bigint,
       r.e ->> 'event_type', r.e -> 'payload', r.e -> 'metadata'
FROM taken, jsonb_array_elements(@rows::jsonb) WITH ORDINALITY AS r(e, ord);
