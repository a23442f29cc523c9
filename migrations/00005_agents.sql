-- +goose Up
-- The agents read model (projections/agents.go): one row per agent with its
-- profile and participation statistics, and one row per invitation (the
-- agent's history). Rebuilt from the log by
-- `towow projections rebuild --name agents`.
CREATE TABLE agents (
    agent_id             text PRIMARY KEY,
    user_name            text        NOT NULL,
    mode                 text        NOT NULL, -- twin | external
    location             text        NOT NULL,
    tags                 jsonb       NOT NULL, -- array of strings
    profile              jsonb       NOT NULL, -- the whole profile, as registered or last updated
    active               boolean     NOT NULL,
    token_issued_at      timestamptz,          -- external agents: when the current token was issued
    invitations          int         NOT NULL DEFAULT 0,
    offers_participate   int         NOT NULL DEFAULT 0,
    offers_conditional   int         NOT NULL DEFAULT 0,
    offers_decline       int         NOT NULL DEFAULT 0,
    feedback_accept      int         NOT NULL DEFAULT 0,
    feedback_negotiate   int         NOT NULL DEFAULT 0,
    feedback_withdraw    int         NOT NULL DEFAULT 0,
    feedback_timed_out   int         NOT NULL DEFAULT 0, -- feedback the round's timeout settled (actor system)
    final_participations int         NOT NULL DEFAULT 0, -- times in a final proposal
    last_invited_at      timestamptz,
    registered_at        timestamptz NOT NULL,
    updated_at           timestamptz NOT NULL,
    last_position        bigint      NOT NULL
);

CREATE TABLE agent_invitations (
    agent_id       text        NOT NULL,
    position       bigint      NOT NULL, -- of the channel's towow.channel.created
    channel_id     text        NOT NULL,
    demand_id      text        NOT NULL,
    root_demand_id text        NOT NULL,
    invited_at     timestamptz NOT NULL,
    PRIMARY KEY (agent_id, position)
);

-- +goose Down
DROP TABLE agent_invitations;
DROP TABLE agents;
