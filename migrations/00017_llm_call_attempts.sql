-- +goose Up
-- A call that took more than one attempt (transport retries, replies
-- asked again because they did not parse) keeps them: a JSON array of
-- {outcome, error, latency_ms}, NULL for a call of one attempt. Rows
-- written before hold NULL until `towow projections rebuild`.
ALTER TABLE llm_calls ADD COLUMN attempts jsonb;

-- +goose Down
ALTER TABLE llm_calls DROP COLUMN attempts;
