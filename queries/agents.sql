-- name: InsertAgent :exec
INSERT INTO agents (agent_id, user_name, mode, location, tags, profile, active, registered_at, updated_at, last_position)
VALUES (@agent_id, @user_name, @mode, @location, @tags, @profile, true, @recorded_at, @recorded_at, @position)
ON CONFLICT (agent_id) DO NOTHING;

-- name: UpdateAgentProfile :exec
UPDATE agents SET user_name = @user_name, mode = @mode, location = @location, tags = @tags, profile = @profile,
                  updated_at = @recorded_at, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: SetAgentActive :exec
UPDATE agents SET active = @active, updated_at = @recorded_at, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: SetAgentToken :exec
UPDATE agents SET token_issued_at = @recorded_at::timestamptz, updated_at = @recorded_at::timestamptz, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: InsertInvitations :exec
-- One row per invited agent of a new channel; counts the invitation on
-- each agent row (an agent not registered gets the invitation row only).
WITH invited AS (
    INSERT INTO agent_invitations (agent_id, position, channel_id, demand_id, root_demand_id, invited_at)
    SELECT a, @position, @channel_id, @demand_id, @root_demand_id, @recorded_at::timestamptz
    FROM unnest(@agent_ids::text[]) AS a
    ON CONFLICT (agent_id, position) DO NOTHING
    RETURNING agent_id
)
UPDATE agents SET invitations = invitations + 1, last_invited_at = @recorded_at::timestamptz, last_position = @position
WHERE agent_id IN (SELECT agent_id FROM invited);

-- name: CountOffer :exec
UPDATE agents SET offers_participate = offers_participate + (@decision::text = 'participate')::int,
                  offers_conditional = offers_conditional + (@decision::text = 'conditional')::int,
                  offers_decline     = offers_decline + (@decision::text = 'decline')::int,
                  last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: CountFeedback :exec
UPDATE agents SET feedback_accept    = feedback_accept + (@feedback_type::text = 'accept' AND NOT @timed_out::boolean)::int,
                  feedback_negotiate = feedback_negotiate + (@feedback_type::text = 'negotiate')::int,
                  feedback_withdraw  = feedback_withdraw + (@feedback_type::text = 'withdraw')::int,
                  feedback_timed_out = feedback_timed_out + @timed_out::boolean::int,
                  last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: CountFinalParticipations :exec
UPDATE agents SET final_participations = final_participations + 1, last_position = @position
WHERE agent_id = ANY(@agent_ids::text[]) AND last_position < @position;

-- name: GetAgent :one
SELECT * FROM agents WHERE agent_id = @agent_id;

-- name: ListAgents :many
-- Ordered by agent id; after_id is the page cursor ('' for the first page).
SELECT * FROM agents
WHERE agent_id > @after_id::text
  AND (sqlc.narg('active')::boolean IS NULL OR active = sqlc.narg('active')::boolean)
  AND (sqlc.narg('mode')::text IS NULL OR mode = sqlc.narg('mode')::text)
  AND (sqlc.narg('tag')::text IS NULL OR tags ? sqlc.narg('tag')::text)
  AND (sqlc.narg('location')::text IS NULL OR location = sqlc.narg('location')::text)
  AND (sqlc.narg('q')::text IS NULL OR user_name ILIKE '%' || sqlc.narg('q')::text || '%'
       OR profile->>'profile_summary' ILIKE '%' || sqlc.narg('q')::text || '%' OR agent_id ILIKE '%' || sqlc.narg('q')::text || '%')
ORDER BY agent_id
LIMIT @max_count;

-- name: AgentHistory :many
-- The channels an agent was invited to, newest first, with its offer and
-- the channel's outcome; before_position is the page cursor (0: first page).
SELECT i.position, i.channel_id, i.demand_id, i.root_demand_id, i.invited_at,
       c.depth, c.status, c.current_round, c.rounds_taken, c.participants,
       d.raw_input,
       o.decision, o.contribution, o.conditions, o.reasoning, o.decline_reason, o.recorded_at AS offered_at
FROM agent_invitations i
LEFT JOIN channels c ON c.channel_id = i.channel_id
LEFT JOIN demands d ON d.demand_id = i.demand_id
LEFT JOIN channel_offers o ON o.channel_id = i.channel_id AND o.agent_id = i.agent_id
WHERE i.agent_id = @agent_id AND (@before_position::bigint = 0 OR i.position < @before_position::bigint)
ORDER BY i.position DESC
LIMIT @max_count;

-- name: AgentFeedback :many
-- An agent's feedback in the given channels, by channel and version.
SELECT * FROM channel_feedback
WHERE agent_id = @agent_id AND channel_id = ANY(@channel_ids::text[])
ORDER BY channel_id, proposal_version;

-- name: DeleteAgents :exec
-- Rebuild: inside the rebuild's transaction.
DELETE FROM agents;

-- name: DeleteAgentInvitations :exec
DELETE FROM agent_invitations;

-- name: ChecksumAgents :one
-- Row-for-row fingerprint of both tables (rebuild checks).
SELECT ((SELECT count(*) FROM agents) + (SELECT count(*) FROM agent_invitations))::bigint AS row_count,
       md5(coalesce((SELECT string_agg(a::text, E'\n' ORDER BY a.agent_id) FROM agents a), '') || E'\n--\n' ||
           coalesce((SELECT string_agg(i::text, E'\n' ORDER BY i.agent_id, i.position) FROM agent_invitations i), ''))::text AS checksum;
