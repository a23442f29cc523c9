-- +goose Up
-- A force-finalized channel (004: after the last round) has confirmed and
-- optional participants; participants holds both, optional_participants the
-- optional ones. Existing rows: run `towow projections rebuild --name channels`.
ALTER TABLE channels ADD COLUMN optional_participants jsonb;

-- +goose Down
ALTER TABLE channels DROP COLUMN optional_participants;
