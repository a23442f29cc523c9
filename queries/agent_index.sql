-- name: AgentIndexPosition :one
SELECT position FROM agent_index_position WHERE id = 1;

-- name: UpsertAgentIndex :exec
-- Writes the agents changed up to @position (tags joined by U+001F) and
-- moves the index's position there; a row never goes back to an older
-- state.
WITH rows AS (
    INSERT INTO agent_index (agent_id, active, mode, tags, location, last_position)
    SELECT r.agent_id, r.active, r.mode, string_to_array(r.tags, E'\x1f'), r.location, r.last_position
    FROM (SELECT unnest(@agent_ids::text[]) AS agent_id, unnest(@actives::boolean[]) AS active,
                 unnest(@modes::text[]) AS mode, unnest(@tags::text[]) AS tags,
                 unnest(@locations::text[]) AS location,
                 unnest(@positions::bigint[]) AS last_position) AS r
    ON CONFLICT (agent_id) DO UPDATE
        SET active = EXCLUDED.active, mode = EXCLUDED.mode, tags = EXCLUDED.tags, location = EXCLUDED.location,
            last_position = EXCLUDED.last_position
        WHERE agent_index.last_position < EXCLUDED.last_position
    RETURNING 1
)
UPDATE agent_index_position SET position = GREATEST(position, @position::bigint)
WHERE id = 1 AND (SELECT count(*) FROM rows) >= 0;

-- name: ShortlistAgents :many
-- The active agents carrying any of @tags, best first: those carrying all
-- of them, then those in @location (or remote), then in an order drawn
-- from @salt (the demand), so that equal agents share the work across
-- demands and the same demand always gets the same list; at most
-- @max_rows, without @exclude. (An integer hash, not md5, and no
-- per-row tag count: p99 at 100,000 agents, see `towow bench filter`.)
SELECT agent_id
FROM agent_index
WHERE active AND tags && @tags::text[] AND NOT (agent_id = ANY(@exclude::text[]))
ORDER BY (tags @> @tags::text[]) DESC,
         (location = @location::text OR location IN ('远程', '线上', 'remote')) DESC,
         hashtext(agent_id) # hashtext(@salt::text),
         agent_id
LIMIT @max_rows;

-- name: FillShortlist :many
-- Active agents in @location (or remote) outside @exclude, in an order
-- drawn from @salt: the filler of a shortlist whose needs matched fewer
-- than it holds (prompt 2 sees them as possibly related).
SELECT agent_id
FROM agent_index
WHERE active AND location = ANY(@locations::text[]) AND NOT (agent_id = ANY(@exclude::text[]))
ORDER BY hashtext(agent_id) # hashtext(@salt::text), agent_id
LIMIT @max_rows;
