-- name: EnsureCheckpoint :exec
INSERT INTO projection_checkpoints (name) VALUES (@name)
ON CONFLICT (name) DO NOTHING;

-- name: LockCheckpoint :one
-- Serializes the projector's batches across processes for this transaction.
SELECT position FROM projection_checkpoints WHERE name = @name FOR UPDATE;

-- name: GetCheckpoint :one
SELECT coalesce((SELECT position FROM projection_checkpoints WHERE name = @name), 0)::bigint AS position;

-- name: SaveCheckpoint :exec
UPDATE projection_checkpoints SET position = @position, updated_at = now() WHERE name = @name;

-- name: UseCustomPlans :exec
-- For the rest of the transaction, plan every statement for its own
-- parameters: the SQL rebuilds' plans depend on how much of the log the
-- head bound takes (all of it), which a cached generic plan guesses at a
-- third, picking nested loops that make them several times slower.
SELECT set_config('plan_cache_mode', 'force_custom_plan', true);

-- name: UpsertStream :exec
INSERT INTO streams AS s (stream_id, version, event_count, first_position, last_position,
                          last_event_type, correlation_id, created_at, updated_at)
VALUES (@stream_id, @version, 1, @position, @position, @event_type, sqlc.narg('correlation_id'), @recorded_at, @recorded_at)
ON CONFLICT (stream_id) DO UPDATE SET
    version         = excluded.version,
    event_count     = s.event_count + 1,
    last_position   = excluded.last_position,
    last_event_type = excluded.last_event_type,
    correlation_id  = coalesce(s.correlation_id, excluded.correlation_id),
    updated_at      = excluded.updated_at;

-- name: GetStream :one
SELECT * FROM streams WHERE stream_id = @stream_id;

-- name: ListStreams :many
SELECT * FROM streams
WHERE (sqlc.narg('correlation_id')::text IS NULL OR correlation_id = sqlc.narg('correlation_id')::text)
  AND stream_id > @after_stream_id
ORDER BY stream_id
LIMIT @max_count;

-- name: DeleteStreams :exec
-- Rebuild: inside the rebuild's transaction, so readers keep the old rows
-- until it commits.
DELETE FROM streams;

-- name: ChecksumStreams :one
-- Row-for-row fingerprint (rebuild checks; towow projections rebuild).
SELECT count(*)::bigint AS row_count,
       coalesce(md5(string_agg(s::text, E'\n' ORDER BY s.stream_id)), '')::text AS checksum
FROM streams s;

-- name: RebuildStreams :exec
-- The streams read model folded in one statement (Rebuild's fast path):
-- the same rows UpsertStream builds event by event, which the rebuild test
-- checks row for row.
INSERT INTO streams (stream_id, version, event_count, first_position, last_position,
                     last_event_type, correlation_id, created_at, updated_at)
SELECT e.stream_id,
       max(e.stream_version),
       count(*),
       min(e.global_position),
       max(e.global_position),
       (array_agg(e.event_type::text ORDER BY e.global_position DESC))[1],
       (array_agg(e.metadata ->> 'correlation_id' ORDER BY e.global_position)
            FILTER (WHERE coalesce(e.metadata ->> 'correlation_id', '') <> ''))[1],
       min(e.recorded_at),
       max(e.recorded_at)
FROM events e
WHERE e.global_position <= @head_position
GROUP BY e.stream_id;

-- name: DeclareNoAppends :exec
-- Declares, for the rest of the transaction and before its first write,
-- that it appends no events: event readers then do not wait for it
-- (towow_settled_below), and an append from it is refused.
SELECT set_config('application_name', left(current_setting('application_name'), 48) || ' (no appends)', true);

-- name: ProjectionLags :many
-- How many events each named read model's checkpoint trails @head by (a
-- read model with no checkpoint yet trails by every event up to @head),
-- in one round trip.
SELECT n.name::text AS name,
       (SELECT count(*) FROM events e
        WHERE e.global_position > coalesce(c.position, 0) AND e.global_position <= @head::bigint)::bigint AS events
FROM unnest(@names::text[]) AS n(name)
LEFT JOIN projection_checkpoints c ON c.name = n.name;
