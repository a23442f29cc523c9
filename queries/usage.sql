-- name: UserDemandsSince :one
-- A user's root demands (forks and clarifications included) submitted
-- since a time, and the first one's time: the demands-per-hour limit.
SELECT count(*)::bigint AS used, coalesce(min(created_at), @since)::timestamptz AS oldest
FROM demands
WHERE user_id = @user_id AND parent_demand_id IS NULL AND created_at >= @since;

-- name: UserTokensSince :one
-- The LLM tokens a user's negotiation trees (their workflows'
-- conversations included) spent since a time, and the first such call's
-- time: the daily token budget.
SELECT coalesce(sum(c.input_tokens + c.output_tokens), 0)::bigint AS used, coalesce(min(c.recorded_at), @since)::timestamptz AS oldest
FROM llm_calls c
JOIN demands d ON d.demand_id = c.demand_id
WHERE d.user_id = @user_id AND c.recorded_at >= @since;

-- name: TreeTokens :one
-- The LLM tokens a negotiation tree spent so far, from its events'
-- recorded calls (answers reused from earlier calls spent none): the
-- per-tree budget that bounds recursion.
SELECT coalesce(sum(coalesce((metadata -> 'llm_call' ->> 'input_tokens')::bigint, 0)
                  + coalesce((metadata -> 'llm_call' ->> 'output_tokens')::bigint, 0)), 0)::bigint AS tokens
FROM events
WHERE metadata ->> 'correlation_id' = @demand_id::text AND metadata ? 'llm_call';
