-- +goose Up
-- The demands read model keeps, per demand, the agents its plan assigns
-- and the demand a fork was forked from, so that a list counts what a
-- comparison counts and marks forks without reading the log.

-- towow_plan_agents is the agents a towow.negotiation.completed payload's
-- plan assigns, once each, in the plan's order: the merged plan (the
-- agreement with what its sub-negotiations added), else the final
-- proposal; none when the negotiation did not agree. The live fold
-- (CompleteDemand) and the rebuild (RebuildDemands) both call it.
-- +goose StatementBegin
CREATE FUNCTION towow_plan_agents(completed jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT coalesce(array_agg(s.agent ORDER BY s.first), '{}')::text[]
FROM (SELECT a.value ->> 'agent_id' AS agent, min(a.ordinality) AS first
      FROM jsonb_array_elements(
               CASE WHEN completed ->> 'status' IN ('finalized', 'force_finalized')
                         AND jsonb_typeof(coalesce(nullif(completed -> 'merged_plan', 'null'), completed -> 'final_proposal') -> 'assignments') = 'array'
                    THEN coalesce(nullif(completed -> 'merged_plan', 'null'), completed -> 'final_proposal') -> 'assignments'
                    ELSE '[]'::jsonb END) WITH ORDINALITY AS a (value, ordinality)
      WHERE coalesce(a.value ->> 'agent_id', '') <> ''
      GROUP BY 1) s
$$;
-- +goose StatementEnd

ALTER TABLE demands ADD COLUMN participants text[] NOT NULL DEFAULT '{}';
ALTER TABLE demands ADD COLUMN forked_from text;

-- The rows already there, from the log (a rebuild gives the same).
UPDATE demands d SET participants = towow_plan_agents(c.payload)
FROM (SELECT DISTINCT ON (e.payload ->> 'demand_id') e.payload ->> 'demand_id' AS demand_id, e.payload
      FROM events e WHERE e.event_type = 'towow.negotiation.completed'
      ORDER BY e.payload ->> 'demand_id', e.global_position DESC) c
WHERE c.demand_id = d.demand_id;
UPDATE demands d SET forked_from = nullif(f.forked_from, '')
FROM (SELECT DISTINCT ON (e.payload ->> 'demand_id') e.payload ->> 'demand_id' AS demand_id, e.payload ->> 'forked_from' AS forked_from
      FROM events e WHERE e.event_type = 'towow.negotiation.forked'
      ORDER BY e.payload ->> 'demand_id', e.global_position) f
WHERE f.demand_id = d.demand_id;

-- +goose Down
ALTER TABLE demands DROP COLUMN forked_from;
ALTER TABLE demands DROP COLUMN participants;
DROP FUNCTION towow_plan_agents(jsonb);
