-- +goose Up
-- negotiation_quality: one row per root negotiation that ended (finalized,
-- force_finalized, failed or rejected), its quality scores (package
-- quality) folded from the tree's events up to the event that ended it, by
-- projections/quality.go. GET /api/v1/quality aggregates these rows over a
-- user and time range. Rebuilt from the log by `towow projections rebuild
-- --name quality` (a Go fold: the scores are quality.Score).
CREATE TABLE negotiation_quality (
    demand_id          text PRIMARY KEY,     -- the root demand
    user_id            text        NOT NULL,
    submitted_at       timestamptz NOT NULL, -- the root's towow.demand.submitted
    submitted_position bigint      NOT NULL, -- its cursor: the reports' order (newest first)
    ended_at           timestamptz NOT NULL, -- the event that ended the negotiation
    status             text        NOT NULL, -- finalized, force_finalized, failed or rejected
    final              boolean     NOT NULL,
    root               jsonb       NOT NULL, -- quality.Scores of the root channel (json.Marshal)
    tree               jsonb       NOT NULL, -- quality.Scores of the whole tree
    position           bigint      NOT NULL  -- the event that ended it (the scores fold the tree up to here)
);
-- The aggregate's filters: a user's demands, and a time range, in
-- submission order.
CREATE INDEX negotiation_quality_user_idx ON negotiation_quality (user_id, submitted_at);
CREATE INDEX negotiation_quality_submitted_idx ON negotiation_quality (submitted_at);

-- negotiation_quality_places: for the fairness Gini, the places each agent
-- invited anywhere in a tree holds in the tree's plan (0 for an invited
-- agent left out).
CREATE TABLE negotiation_quality_places (
    demand_id text NOT NULL REFERENCES negotiation_quality (demand_id) ON DELETE CASCADE,
    agent_id  text NOT NULL,
    places    int  NOT NULL,
    PRIMARY KEY (demand_id, agent_id)
);

-- The quality model reads an assignee's capability tags as of the event
-- that ended the negotiation, from the latest registration or update of
-- the agent at or before it (QualityAgentTags): a partial index keeps that
-- a point lookup per agent however long the log.
CREATE INDEX events_agent_profile_idx ON events ((payload ->> 'agent_id'), global_position)
    WHERE event_type IN ('towow.agent.registered', 'towow.agent.updated');

-- +goose Down
DROP INDEX events_agent_profile_idx;
DROP TABLE negotiation_quality_places;
DROP TABLE negotiation_quality;
