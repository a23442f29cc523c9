-- +goose Up
-- A force-finalized channel (after the last round) has confirmed and
-- optional participants; participants holds both, optional_participants the
-- optional ones. Existing rows: run `towow projections rebuild --name channels`.
ALTER TABLE channels ADD COLUMN optional_participants jsonb;
-- The sub-negotiations of a channel (its children).
CREATE INDEX channels_parent_idx ON channels (parent_channel_id) WHERE parent_channel_id IS NOT NULL;

-- +goose Down
DROP INDEX channels_parent_idx;
ALTER TABLE channels DROP COLUMN optional_participants;
