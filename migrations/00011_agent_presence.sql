-- +goose Up
-- External agents' presence (presence/presence.go). agent_contacts is the last
-- contact of each external agent: written on a request its token
-- authenticates, at most once per agent every few seconds, and read by the
-- periodic check that takes silent agents offline. Presence itself is in
-- the log (towow.agent.online / offline); this table is only the
-- high-frequency clock behind it, never replayed.
CREATE TABLE agent_contacts (
    agent_id        text PRIMARY KEY,
    last_contact_at timestamptz NOT NULL
);

-- The agents read model shows presence: online between an agent's
-- towow.agent.online and its next towow.agent.offline, and when each last
-- happened (the events' recorded_at).
ALTER TABLE agents
    ADD COLUMN online          boolean NOT NULL DEFAULT false,
    ADD COLUMN last_online_at  timestamptz,
    ADD COLUMN last_offline_at timestamptz;

-- +goose Down
ALTER TABLE agents DROP COLUMN online, DROP COLUMN last_online_at, DROP COLUMN last_offline_at;
DROP TABLE agent_contacts;
