-- +goose Up
-- Read-model checkpoints: one row per projector, updated in the same
-- transaction as the projector's rows, so a projection is always exactly the
-- fold of the log up to its checkpoint.
CREATE TABLE projection_checkpoints (
    name       text PRIMARY KEY,
    position   bigint      NOT NULL DEFAULT 0 CHECK (position >= 0),
    updated_at timestamptz NOT NULL DEFAULT now()
);

-- streams: one row per event stream (the first read model; see
-- projections/streams.go).
CREATE TABLE streams (
    stream_id       text PRIMARY KEY,
    version         bigint      NOT NULL,
    event_count     bigint      NOT NULL,
    first_position  bigint      NOT NULL,
    last_position   bigint      NOT NULL,
    last_event_type text        NOT NULL,
    correlation_id  text,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);
CREATE INDEX streams_correlation_idx ON streams (correlation_id) WHERE correlation_id IS NOT NULL;

-- +goose Down
DROP TABLE streams;
DROP TABLE projection_checkpoints;
