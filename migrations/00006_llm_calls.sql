-- +goose Up
-- llm_calls: one row per event whose payload came from an LLM (its
-- metadata.llm_call), folded by projections/llm_calls.go. Rebuilt from the
-- log by `towow projections rebuild --name llm_calls` (in one INSERT ...
-- SELECT over the events table).
CREATE TABLE llm_calls (
    position      bigint PRIMARY KEY,           -- the event's global position: the list order and page cursor
    event_id      uuid        NOT NULL,
    event_type    text        NOT NULL,
    stream_id     text        NOT NULL,
    demand_id     text        NOT NULL,         -- metadata.correlation_id: the root demand ('' if none)
    actor         text        NOT NULL,         -- metadata.actor ('' if none)
    agent_id      text,                         -- <id> of an "agent:<id>" actor, else NULL
    prompt_key    text        NOT NULL,
    provider      text        NOT NULL,
    model         text        NOT NULL,         -- '' when the provider reported none
    latency_ms    bigint      NOT NULL,
    input_tokens  int         NOT NULL,
    output_tokens int         NOT NULL,
    outcome       text        NOT NULL,         -- ok, error, timeout, breaker_open or parse_error
    fallback_used boolean     NOT NULL,
    error         text        NOT NULL,         -- '' when the call succeeded
    recorded_at   timestamptz NOT NULL
);
-- The list's filters, each in position order (the primary key serves the
-- unfiltered list, outcome, provider and time ranges). Every index slows the
-- rebuild, so only the selective ones.
CREATE INDEX llm_calls_prompt_idx ON llm_calls (prompt_key, position);
CREATE INDEX llm_calls_demand_idx ON llm_calls (demand_id, position);
CREATE INDEX llm_calls_agent_idx ON llm_calls (agent_id, position) WHERE agent_id IS NOT NULL;

-- +goose Down
DROP TABLE llm_calls;
