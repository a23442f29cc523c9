-- name: InsertChannel :exec
INSERT INTO channels (channel_id, demand_id, root_demand_id, parent_channel_id, depth, status, invited,
                      last_position, created_at, updated_at)
VALUES (@channel_id, @demand_id, @root_demand_id, sqlc.narg('parent_channel_id'), @depth, 'created', @invited,
        @position, @recorded_at, @recorded_at)
ON CONFLICT (channel_id) DO NOTHING;

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
INSERT INTO channel_proposals (channel_id, version, round, type, proposal, position, recorded_at)
VALUES (@channel_id, @version, @round, @type, @proposal, @position, @recorded_at)
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
