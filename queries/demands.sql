-- name: InsertDemand :exec
INSERT INTO demands (demand_id, user_id, raw_input, root_demand_id, parent_demand_id, parent_channel_id, depth,
                     status, submitted_position, last_position, created_at, updated_at)
VALUES (@demand_id, @user_id, @raw_input, @root_demand_id, sqlc.narg('parent_demand_id'), sqlc.narg('parent_channel_id'),
        @depth, 'processing', @position, @position, @recorded_at, @recorded_at)
ON CONFLICT (demand_id) DO NOTHING;

-- name: SetDemandUnderstanding :exec
UPDATE demands SET understanding = @understanding, last_position = @position, updated_at = @recorded_at
WHERE demand_id = @demand_id;

-- name: SetDemandChannel :exec
UPDATE demands SET channel_id = @channel_id, last_position = @position, updated_at = @recorded_at
WHERE demand_id = @demand_id;

-- name: CompleteDemand :exec
-- A channel's NegotiationCompleted: finalized and force_finalized complete
-- the demand, failed fails it.
UPDATE demands SET status = @status, outcome = @outcome, final_proposal = sqlc.narg('final_proposal'),
                   rounds_taken = sqlc.narg('rounds_taken'), last_position = @position, updated_at = @recorded_at
WHERE demand_id = @demand_id;

-- name: FailDemand :exec
-- NegotiationFailed: before a channel existed (no candidates, ...) or with
-- the channel. A completion already recorded keeps its outcome.
UPDATE demands SET status = 'failed', outcome = coalesce(outcome, @reason), error_code = sqlc.narg('error_code'),
                   last_position = @position, updated_at = @recorded_at
WHERE demand_id = @demand_id;

-- name: GetDemand :one
SELECT * FROM demands WHERE demand_id = @demand_id;

-- name: ListDemands :many
-- Newest first; before_position is the page cursor (0: the first page).
SELECT * FROM demands
WHERE (@before_position::bigint = 0 OR submitted_position < @before_position::bigint)
  AND (sqlc.narg('status')::text IS NULL OR status = sqlc.narg('status')::text)
  AND (sqlc.narg('user_id')::text IS NULL OR user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR created_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR created_at < sqlc.narg('until')::timestamptz)
  AND (@include_sub::boolean OR parent_demand_id IS NULL)
ORDER BY submitted_position DESC
LIMIT @max_count;

-- name: ListSubDemands :many
SELECT * FROM demands WHERE parent_demand_id = @demand_id ORDER BY submitted_position;

-- name: DeleteDemands :exec
-- Rebuild: inside the rebuild's transaction, so readers keep the old rows
-- until it commits.
DELETE FROM demands;

-- name: DeleteStreams :exec
DELETE FROM streams;

-- name: ChecksumDemands :one
-- Row-for-row fingerprint (rebuild checks; towow projections rebuild).
SELECT count(*)::bigint AS row_count,
       coalesce(md5(string_agg(d::text, E'\n' ORDER BY d.demand_id)), '')::text AS checksum
FROM demands d;

-- name: ChecksumStreams :one
SELECT count(*)::bigint AS row_count,
       coalesce(md5(string_agg(s::text, E'\n' ORDER BY s.stream_id)), '')::text AS checksum
FROM streams s;
