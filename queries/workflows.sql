-- name: GetWorkflowState :one
-- The live fold's read: a workflow's state as its stream's last event left
-- it ('null' when the stream has no row yet).
SELECT coalesce((SELECT w.state FROM workflows w WHERE w.workflow_id = @workflow_id), 'null')::jsonb AS state;

-- name: UpsertWorkflows :exec
-- The rows of workflows after an event of their streams, live (one) and in
-- a rebuild (many), in one statement (one element per workflow in every
-- array).
INSERT INTO workflows AS w (workflow_id, demand_id, channel_id, user_id, state, last_position)
SELECT r.workflow_id, r.demand_id, r.channel_id, r.user_id, r.state::jsonb, r.last_position
FROM (SELECT unnest(@workflow_ids::text[])      AS workflow_id,
             unnest(@demand_ids::text[])        AS demand_id,
             unnest(@channel_ids::text[])       AS channel_id,
             unnest(@user_ids::text[])          AS user_id,
             unnest(@states::text[])            AS state,
             unnest(@last_positions::bigint[])  AS last_position) AS r
ON CONFLICT (workflow_id) DO UPDATE SET
    demand_id     = excluded.demand_id,
    channel_id    = excluded.channel_id,
    user_id       = excluded.user_id,
    state         = excluded.state,
    last_position = excluded.last_position;

-- name: DeleteWorkflowOpenNodes :exec
-- The open nodes of workflows, before they are written again.
DELETE FROM workflow_open_nodes WHERE workflow_id = ANY(@workflow_ids::text[]);

-- name: InsertWorkflowOpenNodes :exec
-- Open nodes of one or many workflows in one statement (one element per
-- node in every array).
INSERT INTO workflow_open_nodes (workflow_id, node_id, node_type, assignee, ordinal, node)
SELECT r.workflow_id, r.node_id, r.node_type, r.assignee, r.ordinal, r.node::jsonb
FROM (SELECT unnest(@workflow_ids::text[]) AS workflow_id,
             unnest(@node_ids::text[])     AS node_id,
             unnest(@node_types::text[])   AS node_type,
             unnest(@assignees::text[])    AS assignee,
             unnest(@ordinals::int[])      AS ordinal,
             unnest(@nodes::text[])        AS node) AS r;

-- name: WorkflowStreamEvents :many
-- Rebuild: the events of every workflow stream after a position up to the
-- head, a page at a time, in log order (what the live fold reads, event by
-- event).
SELECT global_position, stream_id, event_type, payload,
       coalesce((metadata ->> 'schema_version')::int, 0)::int AS schema_version
FROM events
WHERE global_position > @after_position AND global_position <= @head_position
  AND starts_with(stream_id, @stream_prefix::text)
ORDER BY global_position
LIMIT @max_count;

-- name: GetWorkflow :one
-- A workflow's row as the read model holds it ('null' state and cursor 0
-- without one), with the position of its stream's last event in the log:
-- a reader whose row is behind that waits for the read model
-- (read-your-writes).
SELECT coalesce(w.state, 'null')::jsonb AS state,
       coalesce(w.last_position, 0)::bigint AS last_position,
       coalesce((SELECT e.global_position FROM events e WHERE e.stream_id = @stream_id
                 ORDER BY e.stream_version DESC LIMIT 1), 0)::bigint AS stream_head
FROM (VALUES (1)) AS one
LEFT JOIN workflows w ON w.workflow_id = @workflow_id;

-- name: ListOpenWorkflowNodes :many
-- The open nodes of one type waiting for one assignee (a task's agent, an
-- approval's user), by workflow, each workflow's in node order.
SELECT o.workflow_id, w.demand_id, w.channel_id, w.user_id, coalesce(w.state->>'Title', '')::text AS title, o.node_id, o.node
FROM workflow_open_nodes o
JOIN workflows w ON w.workflow_id = o.workflow_id
WHERE o.node_type = @node_type AND o.assignee = @assignee
ORDER BY o.workflow_id, o.ordinal;

-- name: DeleteWorkflows :exec
-- Rebuild: both tables, inside the rebuild's transaction.
WITH o AS (DELETE FROM workflow_open_nodes)
DELETE FROM workflows;

-- name: ChecksumWorkflows :one
-- Row-for-row fingerprint of both tables.
SELECT ((SELECT count(*) FROM workflows) + (SELECT count(*) FROM workflow_open_nodes))::bigint AS row_count,
       md5(coalesce((SELECT string_agg(w::text, E'\n' ORDER BY w.workflow_id) FROM workflows w), '') ||
           coalesce((SELECT string_agg(o::text, E'\n' ORDER BY o.workflow_id, o.node_id) FROM workflow_open_nodes o), ''))::text AS checksum;

-- name: ListUserWorkflows :many
-- One user's workflows (every user's when user_id is empty), newest
-- first.
SELECT state, last_position
FROM workflows
WHERE (@user_id::text = '' OR user_id = @user_id::text)
ORDER BY (state ->> 'CreatedAt') DESC, workflow_id
LIMIT @max_count;
