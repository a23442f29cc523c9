-- name: UserEarlierDemands :many
-- Prompt 1's user_context (negotiate/user_context.go): the last @max_count
-- root demands @user_id submitted before log position @before, newest
-- first, forks left out (a fork is a what-if, not a demand of the user).
-- Served by events_user_demands_idx.
SELECT e.global_position, e.event_id, e.stream_id, e.stream_version, e.event_type, e.payload, e.metadata, e.recorded_at
FROM events e
WHERE e.event_type = 'towow.demand.submitted'
  AND e.payload ->> 'user_id' = @user_id::text
  AND e.global_position < @before
  AND coalesce(e.payload ->> 'parent_demand_id', '') = ''
  AND NOT EXISTS (SELECT 1 FROM events f WHERE f.stream_id = e.stream_id AND f.event_type = 'towow.negotiation.forked')
ORDER BY e.global_position DESC
LIMIT @max_count;

-- name: DemandOutcomesBefore :many
-- How root demands had ended by log position @before: each one's last
-- towow.demand.rejected, towow.negotiation.failed or root
-- towow.negotiation.completed before it (none: still running then). Those
-- are on the demands' own streams and their root channels' streams,
-- @stream_ids: a few dozen events each, read through their stream index,
-- however long the trees' other streams and the log are.
SELECT DISTINCT ON (e.metadata ->> 'correlation_id')
       e.global_position, e.event_id, e.stream_id, e.stream_version, e.event_type, e.payload, e.metadata, e.recorded_at
FROM events e
WHERE e.stream_id = ANY(@stream_ids::text[])
  AND e.event_type IN ('towow.demand.rejected', 'towow.negotiation.failed', 'towow.negotiation.completed')
  AND e.payload ->> 'demand_id' = e.metadata ->> 'correlation_id'
  AND e.global_position < @before
ORDER BY e.metadata ->> 'correlation_id', e.global_position DESC;
