-- +goose Up
-- The event store: one append-only table, the only source of truth.
--
-- Ordering: global_position is handed out in commit order. Every INSERT into
-- events first takes the transaction-scoped advisory lock towow_lock_events()
-- (statement trigger events_serialize below), so at most one transaction at a
-- time holds uncommitted events and a reader that sees position P can never
-- later see a new committed event below P. See eventstore/doc.go.
CREATE TABLE events (
    global_position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id        uuid        NOT NULL,
    stream_id       text        NOT NULL,
    stream_version  bigint      NOT NULL,
    -- C collation so a btree index serves prefix (LIKE 'towow.offer.%') filters.
    event_type      text COLLATE "C" NOT NULL,
    payload         jsonb       NOT NULL,
    metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
    CONSTRAINT events_event_id_key UNIQUE (event_id),
    CONSTRAINT events_stream_version_key UNIQUE (stream_id, stream_version),
    CONSTRAINT events_stream_id_check CHECK (stream_id <> '' AND length(stream_id) <= 200),
    CONSTRAINT events_stream_version_check CHECK (stream_version >= 1),
    CONSTRAINT events_event_type_check CHECK (event_type ~ '^towow(\.[a-z0-9_]+)+$'),
    CONSTRAINT events_payload_check CHECK (jsonb_typeof(payload) = 'object'),
    CONSTRAINT events_metadata_check CHECK (jsonb_typeof(metadata) = 'object')
);

CREATE INDEX events_event_type_idx ON events (event_type, global_position);
CREATE INDEX events_correlation_idx ON events ((metadata ->> 'correlation_id'), global_position);
CREATE INDEX events_actor_idx ON events ((metadata ->> 'actor'), global_position);
CREATE INDEX events_recorded_at_idx ON events (recorded_at);

-- towow_lock_events serializes appends for the rest of the calling transaction.
-- The key is the first 8 bytes of sha256('towow.events') as a signed bigint.
-- +goose StatementBegin
CREATE FUNCTION towow_lock_events() RETURNS void
LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(7784431300528011806);
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION towow_events_serialize() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM towow_lock_events();
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- A BEFORE ... FOR EACH STATEMENT trigger fires before any row of the
-- statement is built, so before the identity default draws a position.
CREATE TRIGGER events_serialize BEFORE INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION towow_events_serialize();

-- The NOTIFY payload is only a wake-up hint: the highest position inserted by
-- the statement, delivered to listeners when the transaction commits.
-- +goose StatementBegin
CREATE FUNCTION towow_events_notify() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('towow_events', (SELECT max(global_position)::text FROM new_events));
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER events_notify AFTER INSERT ON events
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION towow_events_notify();

-- Events are immutable: no UPDATE, DELETE or TRUNCATE.
-- +goose StatementBegin
CREATE FUNCTION towow_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$;
-- +goose StatementEnd

CREATE TRIGGER events_immutable BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION towow_events_immutable();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION towow_events_immutable();

-- +goose Down
DROP TABLE events;
DROP FUNCTION towow_events_immutable();
DROP FUNCTION towow_events_notify();
DROP FUNCTION towow_events_serialize();
DROP FUNCTION towow_lock_events();
