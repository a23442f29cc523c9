-- +goose Up
-- An agent's availability is its own words (stored sealed in its events);
-- the index is SQL's copy of what the shortlist matches on, and the
-- shortlist never read it, so the index no longer keeps it in plaintext.
ALTER TABLE agent_index DROP COLUMN availability;

-- +goose Down
ALTER TABLE agent_index ADD COLUMN availability text NOT NULL DEFAULT '';
