-- name: InsertChannel :exec
INSERT INTO channels (channel_id, demand_id, root_demand_id, parent_channel_id, depth, status, invited,
                      last_position, created_at, updated_at)
VALUES (@channel_id, @demand_id, @root_demand_id, sqlc.narg('parent_channel_id'), @depth, 'created', @invited,
        @position, @recorded_at, @recorded_at)
ON CONFLICT (channel_id) DO NOTHING;

-- name: AddChannelInvitee :exec
-- A candidate added after the channel opened (towow.channel.invite_sent).
UPDATE channels SET invited = invited || jsonb_build_array(@agent_id::text), last_position = @position, updated_at = @recorded_at
WHERE channel_id = @channel_id;

-- name: SetChannelStatus :exec
UPDATE channels SET status = @status, last_position = @position, updated_at = @recorded_at
WHERE channel_id = @channel_id;

-- name: SetChannelProposal :exec
UPDATE channels SET proposal_version = @proposal_version, current_round = @current_round,
                    last_position = @position, updated_at = @recorded_at
WHERE channel_id = @channel_id;

-- name: FinalizeChannel :exec
UPDATE channels SET participants = @participants, optional_participants = sqlc.narg('optional_participants'),
                    rounds_taken = @rounds_taken,
                    last_position = @position, updated_at = @recorded_at
WHERE channel_id = @channel_id;

-- name: InsertProposal :exec
-- proposal is the payload's proposal as recorded (RebuildChannelProposals
-- takes it the same way).
INSERT INTO channel_proposals (channel_id, version, round, type, proposal, position, recorded_at)
VALUES (@channel_id, @version, @round, @type, coalesce(nullif(@payload::jsonb -> 'proposal', 'null'), '{}'), @position, @recorded_at)
ON CONFLICT (channel_id, version) DO NOTHING;

-- name: InsertOffer :exec
INSERT INTO channel_offers (channel_id, agent_id, display_name, decision, contribution, conditions, reasoning,
                            decline_reason, confidence, position, recorded_at)
VALUES (@channel_id, @agent_id, @display_name, @decision, @contribution, @conditions, @reasoning,
        @decline_reason, @confidence, @position, @recorded_at)
ON CONFLICT (channel_id, agent_id) DO NOTHING;

-- name: InsertFeedback :exec
INSERT INTO channel_feedback (channel_id, agent_id, proposal_version, round, feedback_type, reasoning,
                              adjustment_request, concerns, actor, position, recorded_at)
VALUES (@channel_id, @agent_id, @proposal_version, @round, @feedback_type, @reasoning,
        @adjustment_request, @concerns, @actor, @position, @recorded_at)
ON CONFLICT (channel_id, proposal_version, agent_id) DO NOTHING;

-- name: GetChannel :one
SELECT * FROM channels WHERE channel_id = @channel_id;

-- name: ListProposals :many
SELECT * FROM channel_proposals WHERE channel_id = @channel_id ORDER BY version;

-- name: ListOffers :many
SELECT * FROM channel_offers WHERE channel_id = @channel_id ORDER BY position;

-- name: ListFeedback :many
SELECT * FROM channel_feedback
WHERE channel_id = @channel_id AND (@proposal_version::int = 0 OR proposal_version = @proposal_version::int)
ORDER BY position;

-- name: DeleteChannels :exec
-- Rebuild: the four tables, inside the rebuild's transaction.
WITH f AS (DELETE FROM channel_feedback), o AS (DELETE FROM channel_offers), p AS (DELETE FROM channel_proposals)
DELETE FROM channels;

-- name: ChecksumChannels :one
-- Row-for-row fingerprint of the four tables.
SELECT ((SELECT count(*) FROM channels) + (SELECT count(*) FROM channel_proposals) +
        (SELECT count(*) FROM channel_offers) + (SELECT count(*) FROM channel_feedback))::bigint AS row_count,
       md5(coalesce((SELECT string_agg(c::text, E'\n' ORDER BY c.channel_id) FROM channels c), '') ||
           coalesce((SELECT string_agg(p::text, E'\n' ORDER BY p.channel_id, p.version) FROM channel_proposals p), '') ||
           coalesce((SELECT string_agg(o::text, E'\n' ORDER BY o.channel_id, o.agent_id) FROM channel_offers o), '') ||
           coalesce((SELECT string_agg(f::text, E'\n' ORDER BY f.channel_id, f.proposal_version, f.agent_id) FROM channel_feedback f), ''))::text AS checksum;

-- name: RebuildChannels :exec
-- The channels table folded in one statement (Rebuild's fast path; the
-- other three tables have their own): the rows Channels.Apply writes event
-- by event, which the rebuild test checks row for row. A channel's row comes
-- from its first towow.channel.created (InsertChannel: ON CONFLICT DO
-- NOTHING); the events for its id before that are no-ops (their UPDATEs find
-- no row) and every later one applies in log order: status is the last
-- status change's or completion's, current_round and proposal_version the
-- last distributed proposal's, participants, optional_participants and
-- rounds_taken the last finalization's (proposal finalized: participants,
-- no optional ones; force-finalized: confirmed then optional ones).
-- Fields read as Go decodes them (absent or null: '' or 0; text() turns ''
-- into NULL; jsonArray makes a list [] when absent or null, and a null
-- element ''), with keys spelled as their json tags (Go would also take
-- other cases). Each payload is detoasted once: (ARRAY[payload])[1] is an
-- untoasted copy, and OFFSET 0 keeps the planner from copying the
-- expression into every use.
WITH ev AS (
    SELECT e.global_position AS pos, e.event_type::text AS typ, e.recorded_at, coalesce(d.j ->> 'channel_id', '') AS channel_id,
           CASE e.event_type WHEN 'towow.channel.status_changed' THEN coalesce(d.j ->> 'new_status', '')
                             WHEN 'towow.negotiation.completed' THEN coalesce(d.j ->> 'status', '') END AS status,
           (d.j ->> 'round')::int AS round,
           (d.j -> 'proposal' ->> 'version')::int AS version,
           CASE e.event_type WHEN 'towow.channel.invite_sent' THEN coalesce(d.j ->> 'agent_id', '') END AS agent_id
    FROM events e
    CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
    WHERE e.global_position <= @head_position
      AND e.event_type IN ('towow.channel.created', 'towow.channel.invite_sent', 'towow.channel.status_changed', 'towow.negotiation.completed',
                           'towow.proposal.distributed', 'towow.proposal.finalized', 'towow.negotiation.force_finalized')
      AND NOT (e.event_type = 'towow.channel.invite_sent' AND coalesce((d.j ->> 'broadcast')::boolean, false))
), created AS (
    SELECT ev.channel_id, min(ev.pos) AS pos FROM ev WHERE ev.typ = 'towow.channel.created' GROUP BY ev.channel_id
), folded AS (
    SELECT u.channel_id,
           max(u.pos) AS last_pos,
           (array_agg(u.recorded_at ORDER BY u.pos DESC))[1] AS updated_at,
           (array_agg(u.status ORDER BY u.pos DESC) FILTER (WHERE u.status IS NOT NULL))[1] AS status,
           (array_agg(u.round ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.proposal.distributed'))[1] AS round,
           (array_agg(u.version ORDER BY u.pos DESC) FILTER (WHERE u.typ = 'towow.proposal.distributed'))[1] AS version,
           max(u.pos) FILTER (WHERE u.typ IN ('towow.proposal.finalized', 'towow.negotiation.force_finalized')) AS final_pos,
           jsonb_agg(u.agent_id ORDER BY u.pos) FILTER (WHERE u.typ = 'towow.channel.invite_sent') AS added
    FROM ev u JOIN created c ON c.channel_id = u.channel_id AND u.pos > c.pos
    WHERE u.typ <> 'towow.channel.created'
    GROUP BY u.channel_id
)
INSERT INTO channels (channel_id, demand_id, root_demand_id, parent_channel_id, depth, status, invited,
                      current_round, proposal_version, participants, optional_participants, rounds_taken,
                      last_position, created_at, updated_at)
SELECT c.channel_id,
       coalesce(d.j ->> 'demand_id', ''),
       coalesce(nullif(d.j ->> 'root_demand_id', ''), nullif(e.metadata ->> 'correlation_id', ''), d.j ->> 'demand_id', ''),
       nullif(d.j ->> 'parent_channel', ''),
       coalesce((d.j ->> 'recursion_depth')::int, 0),
       coalesce(f.status, 'created'),
       CASE WHEN d.j -> 'invited_agents' @> '[null]'
            THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(d.j -> 'invited_agents') WITH ORDINALITY AS t(a, n))
            ELSE coalesce(nullif(d.j -> 'invited_agents', 'null'), '[]') END || coalesce(f.added, '[]'),
       coalesce(f.round, 0),
       coalesce(f.version, 0),
       CASE fin.event_type WHEN 'towow.proposal.finalized' THEN fin.participants
                           WHEN 'towow.negotiation.force_finalized' THEN fin.confirmed || fin.optional END,
       CASE fin.event_type WHEN 'towow.negotiation.force_finalized' THEN fin.optional END,
       CASE WHEN fin.event_type IS NOT NULL THEN coalesce(fin.rounds_taken, 0) END,
       coalesce(f.last_pos, c.pos),
       e.recorded_at,
       coalesce(f.updated_at, e.recorded_at)
FROM created c
JOIN events e ON e.global_position = c.pos
CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
LEFT JOIN folded f ON f.channel_id = c.channel_id
LEFT JOIN LATERAL (
    SELECT l.event_type, (l.j ->> 'rounds_taken')::int AS rounds_taken,
           CASE WHEN l.j -> 'participants' @> '[null]'
                THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(l.j -> 'participants') WITH ORDINALITY AS t(a, n))
                ELSE coalesce(nullif(l.j -> 'participants', 'null'), '[]') END AS participants,
           CASE WHEN l.j -> 'confirmed_participants' @> '[null]'
                THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(l.j -> 'confirmed_participants') WITH ORDINALITY AS t(a, n))
                ELSE coalesce(nullif(l.j -> 'confirmed_participants', 'null'), '[]') END AS confirmed,
           CASE WHEN l.j -> 'optional_participants' @> '[null]'
                THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(l.j -> 'optional_participants') WITH ORDINALITY AS t(a, n))
                ELSE coalesce(nullif(l.j -> 'optional_participants', 'null'), '[]') END AS optional
    FROM (SELECT fe.event_type, (ARRAY[fe.payload])[1] AS j FROM events fe WHERE fe.global_position = f.final_pos OFFSET 0) AS l
) AS fin ON true;

-- name: RebuildChannelProposals :exec
-- channel_proposals folded in one statement (see RebuildChannels): the first
-- towow.proposal.distributed of each (channel, version) (InsertProposal: ON
-- CONFLICT DO NOTHING), whether or not the channel has a row. proposal is
-- the payload's proposal as recorded, as InsertProposal stores it.
WITH src AS (
    SELECT DISTINCT ON (1, 2)
           coalesce(d.j ->> 'channel_id', '') AS channel_id,
           coalesce((d.j -> 'proposal' ->> 'version')::int, 0) AS version,
           coalesce((d.j ->> 'round')::int, 0) AS round,
           coalesce(nullif(d.j -> 'proposal' ->> 'type', ''), 'normal') AS type,
           coalesce(nullif(d.j -> 'proposal', 'null'), '{}') AS proposal,
           e.global_position AS position,
           e.recorded_at
    FROM events e
    CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
    WHERE e.global_position <= @head_position AND e.event_type = 'towow.proposal.distributed'
    ORDER BY 1, 2, e.global_position
)
INSERT INTO channel_proposals (channel_id, version, round, type, proposal, position, recorded_at)
SELECT src.channel_id, src.version, src.round, src.type, src.proposal, src.position, src.recorded_at FROM src;

-- name: RebuildChannelOffers :exec
-- channel_offers folded in one statement (see RebuildChannels): the first
-- towow.offer.submitted of each (channel, agent) (InsertOffer: ON CONFLICT
-- DO NOTHING).
INSERT INTO channel_offers (channel_id, agent_id, display_name, decision, contribution, conditions, reasoning,
                            decline_reason, confidence, position, recorded_at)
SELECT DISTINCT ON (1, 2)
       coalesce(d.j ->> 'channel_id', ''),
       coalesce(d.j ->> 'agent_id', ''),
       coalesce(d.j ->> 'display_name', ''),
       coalesce(d.j ->> 'decision', ''),
       coalesce(d.j ->> 'contribution', ''),
       CASE WHEN d.j -> 'conditions' @> '[null]'
            THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(d.j -> 'conditions') WITH ORDINALITY AS t(a, n))
            ELSE coalesce(nullif(d.j -> 'conditions', 'null'), '[]') END,
       coalesce(d.j ->> 'reasoning', ''),
       coalesce(d.j ->> 'decline_reason', ''),
       coalesce((d.j ->> 'confidence')::int, 0),
       e.global_position,
       e.recorded_at
FROM events e
CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
WHERE e.global_position <= @head_position AND e.event_type = 'towow.offer.submitted'
ORDER BY 1, 2, e.global_position;

-- name: RebuildChannelFeedback :exec
-- channel_feedback folded in one statement (see RebuildChannels): the first
-- towow.proposal.feedback of each (channel, proposal version, agent)
-- (InsertFeedback: ON CONFLICT DO NOTHING); actor is the event's.
INSERT INTO channel_feedback (channel_id, agent_id, proposal_version, round, feedback_type, reasoning,
                              adjustment_request, concerns, actor, position, recorded_at)
SELECT DISTINCT ON (1, 3, 2)
       coalesce(d.j ->> 'channel_id', ''),
       coalesce(d.j ->> 'agent_id', ''),
       coalesce((d.j ->> 'proposal_version')::int, 0),
       coalesce((d.j ->> 'round')::int, 0),
       coalesce(d.j ->> 'feedback_type', ''),
       coalesce(d.j ->> 'reasoning', ''),
       coalesce(d.j ->> 'adjustment_request', ''),
       CASE WHEN d.j -> 'concerns' @> '[null]'
            THEN (SELECT jsonb_agg(coalesce(a, '') ORDER BY n) FROM jsonb_array_elements_text(d.j -> 'concerns') WITH ORDINALITY AS t(a, n))
            ELSE coalesce(nullif(d.j -> 'concerns', 'null'), '[]') END,
       coalesce(e.metadata ->> 'actor', ''),
       e.global_position,
       e.recorded_at
FROM events e
CROSS JOIN LATERAL (SELECT (ARRAY[e.payload])[1] AS j OFFSET 0) AS d
WHERE e.global_position <= @head_position AND e.event_type = 'towow.proposal.feedback'
ORDER BY 1, 3, 2, e.global_position;
