-- name: TouchAgentContact :exec
-- Records an agent's contact at @at unless one at or after @stale_before
-- (@at less the throttle) is already recorded: one write per agent per few
-- seconds, however often it polls (a fresh row is neither updated nor
-- locked, which an INSERT ... ON CONFLICT DO UPDATE WHERE would do).
WITH updated AS (
    UPDATE agent_contacts AS c SET last_contact_at = @at
    WHERE c.agent_id = @agent_id AND c.last_contact_at < @stale_before
    RETURNING 1
)
INSERT INTO agent_contacts (agent_id, last_contact_at)
SELECT @agent_id, @at
WHERE NOT EXISTS (SELECT 1 FROM updated)
ON CONFLICT (agent_id) DO NOTHING;

-- name: SilentAgents :many
-- Of @agent_ids (the agents online), those with no contact recorded at or
-- after @since, with their last contact (null: none recorded).
SELECT a.agent_id::text AS agent_id, c.last_contact_at
FROM unnest(@agent_ids::text[]) AS a(agent_id)
LEFT JOIN agent_contacts c ON c.agent_id = a.agent_id
WHERE c.last_contact_at IS NULL OR c.last_contact_at < @since
ORDER BY a.agent_id;
