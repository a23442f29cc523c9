-- +goose Up
-- The channels read model (projections/channels.go): one row per channel,
-- every proposal version, every offer and every feedback. Rebuilt from the
-- log by `towow projections rebuild --name channels`.
CREATE TABLE channels (
    channel_id        text PRIMARY KEY,
    demand_id         text        NOT NULL,
    root_demand_id    text        NOT NULL,
    parent_channel_id text,
    depth             int         NOT NULL,
    status            text        NOT NULL,
    invited           jsonb       NOT NULL, -- agent ids invited (array)
    current_round     int         NOT NULL DEFAULT 0,
    proposal_version  int         NOT NULL DEFAULT 0,
    participants      jsonb,                -- agent ids of the final proposal (array), once finalized
    rounds_taken      int,
    last_position     bigint      NOT NULL,
    created_at        timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL
);
CREATE INDEX channels_root_idx ON channels (root_demand_id);

CREATE TABLE channel_proposals (
    channel_id  text        NOT NULL,
    version     int         NOT NULL,
    round       int         NOT NULL,
    type        text        NOT NULL,
    proposal    jsonb       NOT NULL, -- the proposal as distributed (adjustment_summary included)
    position    bigint      NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (channel_id, version)
);

CREATE TABLE channel_offers (
    channel_id     text        NOT NULL,
    agent_id       text        NOT NULL,
    display_name   text        NOT NULL,
    decision       text        NOT NULL,
    contribution   text        NOT NULL,
    conditions     jsonb       NOT NULL,
    reasoning      text        NOT NULL,
    decline_reason text        NOT NULL,
    confidence     int         NOT NULL,
    position       bigint      NOT NULL,
    recorded_at    timestamptz NOT NULL,
    PRIMARY KEY (channel_id, agent_id)
);

CREATE TABLE channel_feedback (
    channel_id         text        NOT NULL,
    agent_id           text        NOT NULL,
    proposal_version   int         NOT NULL,
    round              int         NOT NULL,
    feedback_type      text        NOT NULL,
    reasoning          text        NOT NULL,
    adjustment_request text        NOT NULL,
    concerns           jsonb       NOT NULL,
    actor              text        NOT NULL, -- agent:<id>, or system for a feedback that timed out
    position           bigint      NOT NULL,
    recorded_at        timestamptz NOT NULL,
    PRIMARY KEY (channel_id, proposal_version, agent_id)
);

-- +goose Down
DROP TABLE channel_feedback;
DROP TABLE channel_offers;
DROP TABLE channel_proposals;
DROP TABLE channels;
