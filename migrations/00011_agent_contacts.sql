-- +goose Up
-- The last contact of each external agent (agents/presence.go): written on
-- a request its token authenticates, at most once per agent every few
-- seconds, and read by the periodic check that takes silent agents
-- offline. Presence itself is in the log (towow.agent.online / offline);
-- this is only the high-frequency clock behind it, never replayed.
CREATE TABLE agent_contacts (
    agent_id        text PRIMARY KEY,
    last_contact_at timestamptz NOT NULL
);

-- +goose Down
DROP TABLE agent_contacts;
