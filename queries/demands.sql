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
-- the demand, failed fails it. final_proposal is the payload's
-- final_proposal as recorded (RebuildDemands takes it the same way);
-- participants are its plan's agents (towow_plan_agents).
UPDATE demands SET status = @status, outcome = @outcome, final_proposal = nullif(@payload::jsonb -> 'final_proposal', 'null'),
                   participants = towow_plan_agents(@payload::jsonb),
                   rounds_taken = sqlc.narg('rounds_taken'), last_position = @position, updated_at = @recorded_at
WHERE demand_id = @demand_id;

-- name: SetDemandForkedFrom :exec
-- A fork's towow.negotiation.forked: the demand it was forked from.
UPDATE demands SET forked_from = nullif(@forked_from::text, ''), last_position = @position, updated_at = @recorded_at
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

-- name: ChecksumDemands :one
-- Row-for-row fingerprint (rebuild checks; towow projections rebuild).
SELECT count(*)::bigint AS row_count,
       coalesce(md5(string_agg(d::text, E'\n' ORDER BY d.demand_id)), '')::text AS checksum
FROM demands d;

-- name: RebuildDemands :exec
-- The demands read model folded in one statement (Rebuild's fast path): the
-- rows Demands.Apply writes event by event, which the rebuild test checks
-- row for row. A demand's row comes from its first towow.demand.submitted
-- (InsertDemand: ON CONFLICT DO NOTHING); the events for its id before that
-- are no-ops (their UPDATEs find no row) and every later one applies in log
-- order: understanding is the last understood payload, channel_id the last
-- accepted one's, status the last completion's or failure's, final_proposal
-- and rounds_taken the last completion's, error_code the last failure's,
-- and outcome the last completion's status or else (FailDemand's coalesce)
-- the first non-empty reason of a failure after it. Fields read as Go
-- decodes them (absent or null: '' or 0; text() turns '' into NULL), with
-- keys spelled as their json tags (Go would also take other cases). Each
-- payload is detoasted once: (ARRAY[payload])[1] is an untoasted copy, and
-- OFFSET 0 keeps the planner from copying the expression into every use.
-- final_proposal is the payload's final_proposal as recorded, as
-- CompleteDemand stores it, participants the last completion's plan's
-- agents (towow_plan_agents, as CompleteDemand) and forked_from the last
-- towow.negotiation.forked's.
WITH ev AS (
    SELECT e.global_position AS pos, e.event_type::text AS typ, coalesce(d.j ->> 'demand_id', '') AS demand_id,
           d.j ->> 'channel_id' AS channel_id, d.j ->> 'status' AS status, nullif(d.j -> 'final_proposal', 'null') AS final_proposal,
           (d.j ->> 'rounds_taken')::int AS rounds_taken, d.j ->> 'reason' AS reason, d.j ->> 'error_code' AS error_code,
           CASE WHEN e.event_type = 'towow.negotiation.completed' THEN to_jsonb(towow_plan_agents(d.j)) END AS participants,
           d.j ->> 'forked_from' AS forked_from
    FROM events e
    CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
    WHERE e.global_position <= @head_position
      AND e.event_type IN ('towow.demand.submitted', 'towow.demand.understood', 'towow.demand.accepted',
                           'towow.negotiation.completed', 'towow.negotiation.failed', 'towow.negotiation.forked')
), submitted AS (
    SELECT ev.demand_id, min(ev.pos) AS pos FROM ev WHERE ev.typ = 'towow.demand.submitted' GROUP BY ev.demand_id
), updates AS (
    SELECT u.*, max(u.pos) FILTER (WHERE u.typ = 'towow.negotiation.completed') OVER (PARTITION BY u.demand_id) AS completed_pos
    FROM ev u JOIN submitted s ON s.demand_id = u.demand_id AND u.pos > s.pos
    WHERE u.typ <> 'towow.demand.submitted'
), folded AS (
    SELECT u.demand_id,
           max(u.pos) AS last_pos,
           max(u.pos) FILTER (WHERE u.typ = 'towow.demand.understood') AS understood_pos,
           (array_agg(nullif(u.channel_id, '') ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.demand.accepted'))[1] AS channel_id,
           (array_agg(CASE WHEN u.typ = 'towow.negotiation.failed' OR u.status = 'failed' THEN 'failed' ELSE 'completed' END
                      ORDER BY u.pos DESC) FILTER (WHERE u.typ IN ('towow.negotiation.completed', 'towow.negotiation.failed')))[1] AS status,
           (array_agg(nullif(u.status, '') ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.negotiation.completed'))[1] AS completed_outcome,
           (array_agg(u.reason ORDER BY u.pos)
                FILTER (WHERE u.typ = 'towow.negotiation.failed' AND u.pos > coalesce(u.completed_pos, 0) AND u.reason <> ''))[1] AS failed_reason,
           (array_agg(u.final_proposal ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.negotiation.completed'))[1] AS final_proposal,
           (array_agg(CASE WHEN u.rounds_taken > 0 THEN u.rounds_taken END ORDER BY u.pos DESC)
                FILTER (WHERE u.typ = 'towow.negotiation.completed'))[1] AS rounds_taken,
           (array_agg(nullif(u.error_code, '') ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.negotiation.failed'))[1] AS error_code,
           (array_agg(u.participants ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.negotiation.completed'))[1] AS participants,
           (array_agg(nullif(u.forked_from, '') ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.negotiation.forked'))[1] AS forked_from
    FROM updates u
    GROUP BY u.demand_id
)
INSERT INTO demands (demand_id, user_id, raw_input, root_demand_id, parent_demand_id, parent_channel_id, depth, status,
                     understanding, channel_id, outcome, final_proposal, rounds_taken, error_code,
                     participants, forked_from, submitted_position, last_position, created_at, updated_at)
SELECT s.demand_id,
       coalesce(e.payload ->> 'user_id', ''),
       coalesce(e.payload ->> 'raw_input', ''),
       coalesce(nullif(e.payload ->> 'root_demand_id', ''), s.demand_id),
       nullif(e.payload ->> 'parent_demand_id', ''),
       nullif(e.payload ->> 'parent_channel_id', ''),
       coalesce((e.payload ->> 'recursion_depth')::int, 0),
       coalesce(f.status, 'processing'),
       u.payload,
       f.channel_id,
       coalesce(f.completed_outcome, f.failed_reason),
       f.final_proposal,
       f.rounds_taken,
       f.error_code,
       ARRAY(SELECT jsonb_array_elements_text(f.participants)),
       f.forked_from,
       s.pos,
       coalesce(f.last_pos, s.pos),
       e.recorded_at,
       coalesce(l.recorded_at, e.recorded_at)
FROM submitted s
JOIN events e ON e.global_position = s.pos
LEFT JOIN folded f ON f.demand_id = s.demand_id
LEFT JOIN events l ON l.global_position = f.last_pos
LEFT JOIN events u ON u.global_position = f.understood_pos;
