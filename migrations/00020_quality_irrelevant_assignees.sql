-- +goose Up
-- Quality scores now count irrelevant assignees (quality.Scores
-- IrrelevantAssignees: assignees whose profile carries none of the
-- capabilities of the need they serve). Rows scored before lack the key;
-- it follows from what they hold: relevance is the share of the others,
-- kept to three decimals, exact for any plan of fewer than 500 assignees.
-- A rebuild writes the same numbers.
UPDATE negotiation_quality
SET root = root || jsonb_build_object('irrelevant_assignees',
               (root ->> 'assignees')::bigint - round((root ->> 'relevance')::numeric * (root ->> 'assignees')::bigint)::bigint),
    tree = tree || jsonb_build_object('irrelevant_assignees',
               (tree ->> 'assignees')::bigint - round((tree ->> 'relevance')::numeric * (tree ->> 'assignees')::bigint)::bigint)
WHERE NOT (root ? 'irrelevant_assignees' AND tree ? 'irrelevant_assignees');

-- +goose Down
UPDATE negotiation_quality
SET root = root - 'irrelevant_assignees', tree = tree - 'irrelevant_assignees';
