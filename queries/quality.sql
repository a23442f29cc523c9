-- The quality read model (projections/quality.go): its Apply and Rebuild
-- fold in Go (quality.Score), reading the log through the first five
-- queries (Apply one tree at a time, Rebuild many trees per statement);
-- the rest write and read its rows.

-- name: QualityTreeEvents :many
-- A negotiation tree's events (metadata.correlation_id = the root demand)
-- up to and including a position, in log order: what quality.Score folds.
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE metadata ->> 'correlation_id' = @root_demand_id::text
  AND global_position <= @until_position::bigint
ORDER BY global_position;

-- name: QualityAgentTags :many
-- Each agent's latest towow.agent.registered or towow.agent.updated at or
-- before a position (events_agent_profile_idx), for its profile's tags as
-- of then. An agent with none is missing.
SELECT DISTINCT ON (payload ->> 'agent_id')
       global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE event_type IN ('towow.agent.registered', 'towow.agent.updated')
  AND payload ->> 'agent_id' = ANY(@agent_ids::text[])
  AND global_position <= @until_position::bigint
ORDER BY payload ->> 'agent_id', global_position DESC;

-- name: QualityEndings :many
-- Rebuild: the events of the types that may end a root negotiation
-- (towow.demand.rejected, towow.negotiation.failed and .completed) within a
-- tree, up to the head, in log order; the model picks in Go the ones that
-- end their tree's root.
-- Only what deciding needs is read: a completion's payload carries whole
-- plans.
SELECT global_position, event_type, recorded_at,
       (metadata ->> 'correlation_id')::text             AS root_demand_id,
       coalesce(payload ->> 'demand_id', '')::text       AS demand_id,
       coalesce(payload ->> 'channel_id', '')::text      AS channel_id
FROM events
WHERE event_type IN ('towow.demand.rejected', 'towow.negotiation.failed', 'towow.negotiation.completed')
  AND global_position <= @head_position::bigint
  AND coalesce(metadata ->> 'correlation_id', '') <> ''
ORDER BY global_position;

-- name: QualityTreesEvents :many
-- Rebuild: the events of many negotiation trees at once, each tree (its
-- root demand, metadata.correlation_id) up to and including its own
-- position (the event that ended it): what quality.Score folds, tree by
-- tree. In no order (a sort of the whole result would spill to disk):
-- the model groups the rows by tree and puts each tree in log order.
-- Only what Score reads: the payload
-- of the types it reads (quality.ScoredTypes; null for the others), the
-- LLM call and schema version from the metadata.
SELECT t.root_demand_id::text                                AS root_demand_id,
       e.global_position, e.stream_id, e.event_type, e.recorded_at,
       coalesce((e.metadata ->> 'schema_version')::int, 0)::int AS schema_version,
       (e.metadata -> 'llm_call')::jsonb                     AS llm_call,
       (CASE WHEN e.event_type = ANY(@payload_types::text[]) THEN e.payload END)::jsonb AS payload
FROM (SELECT unnest(@root_demand_ids::text[]) AS root_demand_id, unnest(@until_positions::bigint[]) AS until_position) AS t
JOIN events e ON e.metadata ->> 'correlation_id' = t.root_demand_id
             AND e.global_position <= t.until_position;

-- name: QualityAgentProfiles :many
-- Rebuild: every towow.agent.registered and towow.agent.updated of the
-- given agents up to a position, by agent then in log order
-- (events_agent_profile_idx): the model looks up in Go each agent's
-- profile as of the event that ended each tree.
SELECT global_position, event_id, stream_id, stream_version, event_type, payload, metadata, recorded_at
FROM events
WHERE event_type IN ('towow.agent.registered', 'towow.agent.updated')
  AND payload ->> 'agent_id' = ANY(@agent_ids::text[])
  AND global_position <= @until_position::bigint
ORDER BY payload ->> 'agent_id', global_position;

-- name: UpsertQualities :exec
-- The scores of root negotiations as of the events that ended them, live
-- (one) and in a rebuild (many), in one statement (one element per
-- negotiation in every array; a negotiation at most once); the last
-- ending wins.
INSERT INTO negotiation_quality AS q (demand_id, user_id, submitted_at, submitted_position, ended_at, status, final,
                                      root, tree, position)
SELECT r.demand_id, r.user_id, r.submitted_at, r.submitted_position, r.ended_at, r.status, r.final,
       r.root::jsonb, r.tree::jsonb, r.position
FROM (SELECT unnest(@demand_ids::text[])                  AS demand_id,
             unnest(@user_ids::text[])                    AS user_id,
             unnest(@submitted_ats::timestamptz[])        AS submitted_at,
             unnest(@submitted_positions::bigint[])       AS submitted_position,
             unnest(@ended_ats::timestamptz[])            AS ended_at,
             unnest(@statuses::text[])                    AS status,
             unnest(@finals::boolean[])                   AS final,
             unnest(@roots::text[])                       AS root,
             unnest(@trees::text[])                       AS tree,
             unnest(@positions::bigint[])                 AS position) AS r
ON CONFLICT (demand_id) DO UPDATE SET
    user_id            = excluded.user_id,
    submitted_at       = excluded.submitted_at,
    submitted_position = excluded.submitted_position,
    ended_at           = excluded.ended_at,
    status             = excluded.status,
    final              = excluded.final,
    root               = excluded.root,
    tree               = excluded.tree,
    position           = excluded.position;

-- name: DeleteQualitiesPlaces :exec
-- The places of root negotiations about to be written again.
DELETE FROM negotiation_quality_places WHERE demand_id = ANY(@demand_ids::text[]);

-- name: InsertQualitiesPlaces :exec
-- The places of root negotiations (one element per place).
INSERT INTO negotiation_quality_places (demand_id, agent_id, places)
SELECT a.demand_id, a.agent_id, a.places
FROM (SELECT unnest(@demand_ids::text[]) AS demand_id, unnest(@agent_ids::text[]) AS agent_id,
             unnest(@places::int[]) AS places) AS a;

-- name: DeleteQuality :exec
-- Rebuild: inside the rebuild's transaction, so readers keep the old rows
-- until it commits (the places go with their rows: ON DELETE CASCADE).
DELETE FROM negotiation_quality;

-- name: ChecksumQuality :one
-- Row-for-row fingerprint of both tables (rebuild checks).
SELECT ((SELECT count(*) FROM negotiation_quality) + (SELECT count(*) FROM negotiation_quality_places))::bigint AS row_count,
       md5(coalesce((SELECT string_agg(q::text, E'\n' ORDER BY q.demand_id) FROM negotiation_quality q), '') || E'\n--\n' ||
           coalesce((SELECT string_agg(p::text, E'\n' ORDER BY p.demand_id, p.agent_id) FROM negotiation_quality_places p), ''))::text AS checksum;

-- name: CountUnendedRootDemands :one
-- GET /api/v1/quality's demands beyond the quality rows: the root demands
-- of the demands read model in the filter (created_at, the submission's
-- time, as negotiation_quality.submitted_at) that have no quality row,
-- that is still running (or ended but not yet folded by the quality model).
SELECT count(*)::bigint AS demands
FROM demands d
WHERE d.parent_demand_id IS NULL
  AND (sqlc.narg('user_id')::text IS NULL OR d.user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR d.created_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR d.created_at < sqlc.narg('until')::timestamptz)
  AND NOT EXISTS (SELECT 1 FROM negotiation_quality q WHERE q.demand_id = d.demand_id);

-- name: QualityCounts :one
-- The ended root negotiations in the filter (submitted_at in [since,
-- until)): all, rejected, agreed (finalized or force-finalized).
SELECT count(*)::bigint                                                              AS final,
       (count(*) FILTER (WHERE status = 'rejected'))::bigint                         AS rejected,
       (count(*) FILTER (WHERE status IN ('finalized', 'force_finalized')))::bigint AS agreed
FROM negotiation_quality
WHERE (sqlc.narg('user_id')::text IS NULL OR user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR submitted_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR submitted_at < sqlc.narg('until')::timestamptz);

-- name: QualityMeans :many
-- quality.Mean over the agreed negotiations in the filter, once for the
-- root scores (kind 'root') and once for the tree's ('tree'): the counts
-- summed, the rates averaged to three decimals, rounds and time to
-- agreement averaged to a whole number. No row for a kind without agreed
-- negotiations.
SELECT s.kind::text                                                                    AS kind,
       count(*)::bigint                                                                AS n,
       sum((s.j ->> 'needs')::bigint)::bigint                                          AS needs,
       sum((s.j ->> 'places')::bigint)::bigint                                         AS places,
       sum((s.j ->> 'assignees')::bigint)::bigint                                      AS assignees,
       sum((s.j ->> 'padding')::bigint)::bigint                                        AS padding,
       sum((s.j ->> 'irrelevant_assignees')::bigint)::bigint                           AS irrelevant_assignees,
       sum((s.j -> 'llm' ->> 'calls')::bigint)::bigint                                 AS llm_calls,
       sum((s.j -> 'llm' ->> 'input_tokens')::bigint)::bigint                          AS llm_input_tokens,
       sum((s.j -> 'llm' ->> 'output_tokens')::bigint)::bigint                         AS llm_output_tokens,
       sum((s.j -> 'llm' ->> 'fallbacks')::bigint)::bigint                             AS llm_fallbacks,
       round(avg((s.j ->> 'need_coverage')::numeric), 3)::float8                       AS need_coverage,
       round(avg((s.j ->> 'relevance')::numeric), 3)::float8                           AS relevance,
       round(avg((s.j ->> 'final_accept_rate')::numeric), 3)::float8                   AS final_accept_rate,
       round(avg((s.j ->> 'stability')::numeric), 3)::float8                           AS stability,
       round(avg((s.j ->> 'welfare_utilitarian')::numeric), 3)::float8                 AS welfare_utilitarian,
       round(avg((s.j ->> 'welfare_nash')::numeric), 3)::float8                        AS welfare_nash,
       round(avg((s.j ->> 'rounds')::numeric))::bigint                                 AS rounds,
       round(avg((s.j ->> 'time_to_agreement_ms')::numeric))::bigint                   AS time_to_agreement_ms
FROM negotiation_quality q
CROSS JOIN LATERAL (VALUES ('root', q.root), ('tree', q.tree)) AS s(kind, j)
WHERE q.status IN ('finalized', 'force_finalized')
  AND (sqlc.narg('user_id')::text IS NULL OR q.user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR q.submitted_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR q.submitted_at < sqlc.narg('until')::timestamptz)
GROUP BY s.kind
ORDER BY s.kind;

-- name: QualityPlaces :many
-- The places each agent holds summed over the ended negotiations in the
-- filter (every agent invited in them, 0 included): the fairness Gini's
-- counts.
SELECT p.agent_id, sum(p.places)::bigint AS places
FROM negotiation_quality_places p
JOIN negotiation_quality q ON q.demand_id = p.demand_id
WHERE (sqlc.narg('user_id')::text IS NULL OR q.user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR q.submitted_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR q.submitted_at < sqlc.narg('until')::timestamptz)
GROUP BY p.agent_id
ORDER BY p.agent_id;

-- name: ListQuality :many
-- The newest ended root negotiations in the filter (by submission).
SELECT * FROM negotiation_quality
WHERE (sqlc.narg('user_id')::text IS NULL OR user_id = sqlc.narg('user_id')::text)
  AND (sqlc.narg('since')::timestamptz IS NULL OR submitted_at >= sqlc.narg('since')::timestamptz)
  AND (sqlc.narg('until')::timestamptz IS NULL OR submitted_at < sqlc.narg('until')::timestamptz)
ORDER BY submitted_at DESC, submitted_position DESC
LIMIT @max_count;
