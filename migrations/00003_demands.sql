-- +goose Up
-- demands: one row per demand (root and sub-demands), folded from the
-- demand and channel events by projections/demands.go. Rebuilt from the log
-- by `towow projections rebuild`.
CREATE TABLE demands (
    demand_id          text PRIMARY KEY,
    user_id            text        NOT NULL,
    raw_input          text        NOT NULL,
    root_demand_id     text        NOT NULL,
    parent_demand_id   text,
    parent_channel_id  text,
    depth              int         NOT NULL,
    status             text        NOT NULL, -- processing, completed or failed
    understanding      jsonb,                -- the DemandUnderstood payload
    channel_id         text,
    outcome            text,                 -- finalized, force_finalized, failed (channel) or the failure reason
    final_proposal     jsonb,
    rounds_taken       int,
    error_code         text,
    submitted_position bigint      NOT NULL, -- the DemandSubmitted event's cursor: the list order
    last_position      bigint      NOT NULL,
    created_at         timestamptz NOT NULL,
    updated_at         timestamptz NOT NULL
);
CREATE UNIQUE INDEX demands_submitted_idx ON demands (submitted_position);
CREATE INDEX demands_user_idx ON demands (user_id, submitted_position);
CREATE INDEX demands_parent_idx ON demands (parent_demand_id) WHERE parent_demand_id IS NOT NULL;
CREATE INDEX demands_channel_idx ON demands (channel_id) WHERE channel_id IS NOT NULL;

-- +goose Down
DROP TABLE demands;
