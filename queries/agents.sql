-- name: InsertAgent :exec
-- profile is the payload's profile object as recorded (RebuildAgents takes
-- it the same way).
INSERT INTO agents (agent_id, user_name, mode, location, tags, profile, active, registered_at, updated_at, last_position)
VALUES (@agent_id, @user_name, @mode, @location, @tags, coalesce(nullif(@payload::jsonb -> 'profile', 'null'), '{}'),
        true, @recorded_at, @recorded_at, @position)
ON CONFLICT (agent_id) DO NOTHING;

-- name: UpdateAgentProfile :exec
UPDATE agents SET user_name = @user_name, mode = @mode, location = @location, tags = @tags,
                  profile = coalesce(nullif(@payload::jsonb -> 'profile', 'null'), '{}'),
                  updated_at = @recorded_at, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: SetAgentActive :exec
UPDATE agents SET active = @active, updated_at = @recorded_at, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: SetAgentToken :exec
UPDATE agents SET token_issued_at = @recorded_at::timestamptz, updated_at = @recorded_at::timestamptz, last_position = @position
WHERE agent_id = @agent_id AND last_position < @position;

-- name: SetAgentOnline :exec
-- An agent came online (@online) or went offline at @recorded_at: presence
-- only, so updated_at (the profile's and status's time) stays.
UPDATE agents SET online = @online::boolean,
                  last_online_at = CASE WHEN @online::boolean THEN @recorded_at::timestamptz ELSE last_online_at END,
                  last_offline_at = CASE WHEN @online::boolean THEN last_offline_at ELSE @recorded_at::timestamptz END,
                  last_position = @position
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
                  feedback_timed_out = feedback_timed_out + (@timed_out::boolean)::int,
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
-- Rebuild: both tables, inside the rebuild's transaction.
WITH i AS (DELETE FROM agent_invitations)
DELETE FROM agents;

-- name: ChecksumAgents :one
-- Row-for-row fingerprint of both tables (rebuild checks).
SELECT ((SELECT count(*) FROM agents) + (SELECT count(*) FROM agent_invitations))::bigint AS row_count,
       md5(coalesce((SELECT string_agg(a::text, E'\n' ORDER BY a.agent_id) FROM agents a), '') || E'\n--\n' ||
           coalesce((SELECT string_agg(i::text, E'\n' ORDER BY i.agent_id, i.position) FROM agent_invitations i), ''))::text AS checksum;

-- name: RebuildAgentInvitations :exec
-- agent_invitations folded in one statement (Rebuild's fast path): one row
-- per agent invited by each towow.channel.created, and per candidate a
-- towow.channel.invite_sent added later, registered or not (not the
-- broadcast's invitations of the created candidates: broadcast true)
-- (InsertInvitations; an agent listed twice gets one row), as the rebuild
-- test checks row for row. Fields read as Go decodes them (absent or null:
-- ''; a null list element ''), with keys spelled as their json tags. Each
-- payload is detoasted once: (ARRAY[payload])[1] is an untoasted copy, and
-- OFFSET 0 keeps the planner from copying the expression into every use.
INSERT INTO agent_invitations (agent_id, position, channel_id, demand_id, root_demand_id, invited_at)
SELECT DISTINCT ON (1, 2)
       coalesce(a.agent_id, ''),
       e.global_position,
       coalesce(d.j ->> 'channel_id', ''),
       coalesce(d.j ->> 'demand_id', ''),
       coalesce(nullif(d.j ->> 'root_demand_id', ''), nullif(e.metadata ->> 'correlation_id', ''), d.j ->> 'demand_id', ''),
       e.recorded_at
FROM events e
CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
CROSS JOIN LATERAL (SELECT x.a FROM jsonb_array_elements_text(nullif(d.j -> 'invited_agents', 'null')) AS x(a)
                    WHERE e.event_type = 'towow.channel.created'
                    UNION ALL
                    SELECT coalesce(d.j ->> 'agent_id', '') WHERE e.event_type = 'towow.channel.invite_sent') AS a(agent_id)
WHERE e.global_position <= @head_position AND e.event_type IN ('towow.channel.created', 'towow.channel.invite_sent')
  AND NOT (e.event_type = 'towow.channel.invite_sent' AND coalesce((d.j ->> 'broadcast')::boolean, false))
ORDER BY 1, 2;

-- name: RebuildAgents :exec
-- The agents table folded in one statement (see RebuildAgentInvitations):
-- the rows Agents.Apply writes event by event. An agent's row comes from its
-- first towow.agent.registered (InsertAgent: ON CONFLICT DO NOTHING). Every
-- later write sets last_position to its event's position and positions only
-- grow, so the last_position < position guards never skip an event of the
-- fold: the events naming the agent before its registration are no-ops (no
-- row yet) and every later one applies. So the profile columns are the last
-- update's (or the registration's), active the last (de|re)activation's,
-- token_issued_at the last token's time, online the last presence
-- event's (towow.agent.online or offline) with last_online_at and
-- last_offline_at the last of each one's time, updated_at the last time of
-- these events but the presence ones; the counters count the later events naming the agent once
-- each (an invitation, an offer by decision, a feedback by type — one with
-- actor system is not counted as accepted — and a finalization listing it),
-- last_invited_at is the last invitation's time and last_position the last
-- of all; feedback_timed_out counts the feedback with actor system (the
-- round's timeout settled it). profile is the
-- payload's profile object as recorded, as InsertAgent and
-- UpdateAgentProfile store it.
WITH own AS (
    SELECT e.global_position AS pos, e.event_type::text AS typ, e.recorded_at, coalesce(e.payload ->> 'agent_id', '') AS agent_id
    FROM events e
    WHERE e.global_position <= @head_position
      AND e.event_type IN ('towow.agent.registered', 'towow.agent.updated', 'towow.agent.deactivated',
                           'towow.agent.reactivated', 'towow.agent.token_issued', 'towow.agent.online', 'towow.agent.offline')
), registered AS (
    SELECT own.agent_id, min(own.pos) AS pos FROM own WHERE own.typ = 'towow.agent.registered' GROUP BY own.agent_id
), own_folded AS (
    SELECT o.agent_id,
           max(o.pos) AS last_pos,
           (array_agg(o.recorded_at ORDER BY o.pos DESC)
                FILTER (WHERE o.typ NOT IN ('towow.agent.online', 'towow.agent.offline')))[1] AS updated_at,
           (array_agg(o.typ = 'towow.agent.online' ORDER BY o.pos DESC)
                FILTER (WHERE o.typ IN ('towow.agent.online', 'towow.agent.offline')))[1] AS online,
           (array_agg(o.recorded_at ORDER BY o.pos DESC) FILTER (WHERE o.typ = 'towow.agent.online'))[1] AS last_online_at,
           (array_agg(o.recorded_at ORDER BY o.pos DESC) FILTER (WHERE o.typ = 'towow.agent.offline'))[1] AS last_offline_at,
           max(o.pos) FILTER (WHERE o.typ = 'towow.agent.updated') AS profile_pos,
           (array_agg(o.typ = 'towow.agent.reactivated' ORDER BY o.pos DESC)
                FILTER (WHERE o.typ IN ('towow.agent.deactivated', 'towow.agent.reactivated')))[1] AS active,
           (array_agg(o.recorded_at ORDER BY o.pos DESC) FILTER (WHERE o.typ = 'towow.agent.token_issued'))[1] AS token_issued_at
    FROM own o JOIN registered r ON r.agent_id = o.agent_id AND o.pos > r.pos
    WHERE o.typ <> 'towow.agent.registered'
    GROUP BY o.agent_id
), refs AS (
    SELECT e.global_position AS pos, e.event_type::text AS typ, coalesce(d.j ->> 'agent_id', '') AS agent_id,
           d.j ->> 'decision' AS decision, d.j ->> 'feedback_type' AS feedback_type,
           coalesce(e.metadata ->> 'actor', '') = 'system' AS timed_out
    FROM events e
    CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
    WHERE e.global_position <= @head_position AND e.event_type IN ('towow.offer.submitted', 'towow.proposal.feedback', 'towow.channel.invite_sent')
      AND NOT (e.event_type = 'towow.channel.invite_sent' AND coalesce((d.j ->> 'broadcast')::boolean, false))
    UNION ALL
    SELECT DISTINCT e.global_position, e.event_type::text, coalesce(l.agent_id, ''), NULL, NULL, false
    FROM events e
    CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
    CROSS JOIN LATERAL jsonb_array_elements_text(CASE e.event_type
            WHEN 'towow.channel.created' THEN nullif(d.j -> 'invited_agents', 'null')
            WHEN 'towow.proposal.finalized' THEN nullif(d.j -> 'participants', 'null')
            ELSE coalesce(nullif(d.j -> 'confirmed_participants', 'null'), '[]') || coalesce(nullif(d.j -> 'optional_participants', 'null'), '[]')
        END) AS l(agent_id)
    WHERE e.global_position <= @head_position
      AND e.event_type IN ('towow.channel.created', 'towow.proposal.finalized', 'towow.negotiation.force_finalized')
), refs_folded AS (
    SELECT f.agent_id,
           max(f.pos) AS last_pos,
           count(*) FILTER (WHERE f.typ IN ('towow.channel.created', 'towow.channel.invite_sent')) AS invitations,
           max(f.pos) FILTER (WHERE f.typ IN ('towow.channel.created', 'towow.channel.invite_sent')) AS last_invited_pos,
           count(*) FILTER (WHERE f.typ = 'towow.offer.submitted' AND f.decision = 'participate') AS offers_participate,
           count(*) FILTER (WHERE f.typ = 'towow.offer.submitted' AND f.decision = 'conditional') AS offers_conditional,
           count(*) FILTER (WHERE f.typ = 'towow.offer.submitted' AND f.decision = 'decline') AS offers_decline,
           count(*) FILTER (WHERE f.typ = 'towow.proposal.feedback' AND f.feedback_type = 'accept' AND NOT f.timed_out) AS feedback_accept,
           count(*) FILTER (WHERE f.typ = 'towow.proposal.feedback' AND f.feedback_type = 'negotiate') AS feedback_negotiate,
           count(*) FILTER (WHERE f.typ = 'towow.proposal.feedback' AND f.feedback_type = 'withdraw') AS feedback_withdraw,
           count(*) FILTER (WHERE f.typ = 'towow.proposal.feedback' AND f.timed_out) AS feedback_timed_out,
           count(*) FILTER (WHERE f.typ IN ('towow.proposal.finalized', 'towow.negotiation.force_finalized')) AS final_participations
    FROM refs f JOIN registered r ON r.agent_id = f.agent_id AND f.pos > r.pos
    GROUP BY f.agent_id
), folded AS (
    SELECT r.agent_id, r.pos, o.last_pos AS own_pos, o.updated_at, o.active, o.token_issued_at, f.last_pos AS refs_pos,
           o.online, o.last_online_at, o.last_offline_at,
           f.invitations, f.last_invited_pos, f.offers_participate, f.offers_conditional, f.offers_decline, f.feedback_accept,
           f.feedback_negotiate, f.feedback_withdraw, f.feedback_timed_out, f.final_participations,
           coalesce(nullif(p.j -> 'profile', 'null'), '{}') AS profile
    FROM registered r
    LEFT JOIN own_folded o ON o.agent_id = r.agent_id
    LEFT JOIN refs_folded f ON f.agent_id = r.agent_id
    CROSS JOIN LATERAL (SELECT (ARRAY[pe.payload])[1] AS j FROM events pe
                        WHERE pe.global_position = coalesce(o.profile_pos, r.pos) OFFSET 0) AS p
)
INSERT INTO agents (agent_id, user_name, mode, location, tags, profile, active, token_issued_at,
                    invitations, offers_participate, offers_conditional, offers_decline,
                    feedback_accept, feedback_negotiate, feedback_withdraw, feedback_timed_out, final_participations,
                    last_invited_at, registered_at, updated_at, last_position, online, last_online_at, last_offline_at)
SELECT a.agent_id,
       coalesce(a.profile ->> 'user_name', ''),
       CASE WHEN a.profile ->> 'mode' = 'external' THEN 'external' ELSE 'twin' END,
       coalesce(a.profile ->> 'location', ''),
       CASE WHEN a.profile -> 'tags' @> '[null]'
            THEN (SELECT jsonb_agg(coalesce(t, '') ORDER BY n) FROM jsonb_array_elements_text(a.profile -> 'tags') WITH ORDINALITY AS g(t, n))
            ELSE coalesce(nullif(a.profile -> 'tags', 'null'), '[]') END,
       a.profile,
       coalesce(a.active, true),
       a.token_issued_at,
       coalesce(a.invitations, 0),
       coalesce(a.offers_participate, 0),
       coalesce(a.offers_conditional, 0),
       coalesce(a.offers_decline, 0),
       coalesce(a.feedback_accept, 0),
       coalesce(a.feedback_negotiate, 0),
       coalesce(a.feedback_withdraw, 0),
       coalesce(a.feedback_timed_out, 0),
       coalesce(a.final_participations, 0),
       i.recorded_at,
       e.recorded_at,
       coalesce(a.updated_at, e.recorded_at),
       greatest(a.pos, a.own_pos, a.refs_pos),
       coalesce(a.online, false),
       a.last_online_at,
       a.last_offline_at
FROM folded a
JOIN events e ON e.global_position = a.pos
LEFT JOIN events i ON i.global_position = a.last_invited_pos;
