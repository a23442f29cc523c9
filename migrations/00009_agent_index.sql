-- +goose Up
-- The agent index: the smart filter's first stage shortlists candidates
-- here with SQL before prompt 2 reads them, so prompt 2 reads a bounded
-- number of profiles however large the network. One row per agent,
-- written by the agent directory from the committed agent events
-- (directory/index.go), so every process that runs
-- negotiations keeps it current before it reads it, with or without the
-- read-model projectors. A row only moves forward (last_position), so
-- several processes may write it at once.
CREATE TABLE agent_index (
    agent_id      text    PRIMARY KEY,
    active        boolean NOT NULL,
    mode          text    NOT NULL, -- twin | external
    tags          text[]  NOT NULL,
    location      text    NOT NULL,
    availability  text    NOT NULL,
    last_position bigint  NOT NULL
);
-- The shortlist: active agents carrying any of a need's tags.
CREATE INDEX agent_index_tags ON agent_index USING gin (tags) WHERE active;
-- The filler: active agents of a city.
CREATE INDEX agent_index_location ON agent_index (location) WHERE active;

-- How far the index has read the log (one row).
CREATE TABLE agent_index_position (
    id       int    PRIMARY KEY CHECK (id = 1),
    position bigint NOT NULL
);
INSERT INTO agent_index_position VALUES (1, 0);

-- +goose Down
DROP TABLE agent_index_position;
DROP TABLE agent_index;
