-- +goose Up
-- The read models store a proposal as recorded in its event, in the live
-- fold and in the SQL rebuilds alike (queries/demands.sql,
-- queries/channels.sql), so no rebuild needs to know which stored
-- proposals Go would encode differently: the function that told them is
-- gone. Rows written before it differ from what the folds store now only
-- where a recorded proposal or profile was not Go's own encoding of
-- itself (never for events Go wrote); `towow projections rebuild` aligns
-- them.
DROP FUNCTION towow_proposal_unlike_go(jsonb);

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION towow_proposal_unlike_go(p jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT coalesce(
       jsonb_typeof(p) <> 'object'
    OR NOT p ?& array['demand_id', 'version', 'summary', 'assignments']
    OR p ->> 'proposal_id' = '' OR p ->> 'type' = '' OR p ->> 'objective' = '' OR p ->> 'rationale' = ''
    OR p ->> 'confidence' = '' OR p -> 'gaps' = '[]' OR p -> 'open_questions' = '[]' OR p -> 'compromises' = '[]'
    OR p -> 'unresolved' = '[]' OR p -> 'suggestions' = '[]'
    OR NOT coalesce(p ->> 'created_at' ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{0,8}[1-9])?(Z|[+-][0-9]{2}:[0-9]{2})$'
                    AND p ->> 'created_at' !~ '^(0001-01-01|0000-12-31)|[+-]00:00$', true)
    OR (jsonb_path_exists(p, 'strict $.** ? (@ == null)')
        AND (p -> 'assignments' <> 'null' OR jsonb_path_exists(p - 'assignments', 'strict $.** ? (@ == null)')))
    OR jsonb_path_exists(p, 'lax $ ? (
           exists(@.assignments[*] ? (@.type() == "object" && (!exists(@.agent_id) || !exists(@.role) || !exists(@.responsibility)
                  || !exists(@.conditions_accepted) || @.display_name == "" || @.notes == "" || @.dependencies.size() == 0)))
        || exists(@.timeline ? (!exists(@.start_date) || @.milestones.size() == 0))
        || exists(@.timeline.milestones[*] ? (!exists(@.name) || !exists(@.date) || !exists(@.deliverable)))
        || exists(@.compromises[*] ? (!exists(@.issue) || !exists(@.resolution) || !exists(@.rationale)))
        || exists(@.adjustment_summary ? (!exists(@.round) || @.changes_made.size() == 0 || @.requests_addressed.size() == 0
                                          || @.requests_declined.size() == 0))
        || exists(@.adjustment_summary.changes_made[*] ? (!exists(@.aspect) || !exists(@.before) || !exists(@.after) || !exists(@.reason)))
        || exists(@.adjustment_summary.requests_declined[*] ? (!exists(@.request) || !exists(@.reason))))'),
    false)
$$;
-- +goose StatementEnd
