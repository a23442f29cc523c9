-- +goose Up
-- The event store: one append-only table, the only source of truth.
--
-- Ordering: global_position is handed out in commit order. Every INSERT into
-- events first takes the transaction-scoped advisory lock towow_lock_events()
-- (statement trigger events_serialize below, and towow_append explicitly), so
-- at most one transaction at a time holds uncommitted events and a reader
-- that has seen position P can never later see a new committed event below P.
-- See eventstore/doc.go.
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
-- recorded_at rises with global_position (both are set under the append
-- lock), so a BRIN index serves time-range reads at a fraction of a btree's
-- cost per insert.
CREATE INDEX events_recorded_at_idx ON events USING brin (recorded_at);

-- towow_lock_events serializes appends for the rest of the calling transaction.
-- The key is the first 8 bytes of sha256('towow.events') as a signed bigint.
-- +goose StatementBegin
CREATE FUNCTION towow_lock_events() RETURNS void
LANGUAGE sql AS $$
    SELECT pg_advisory_xact_lock(7784431300528011806);
$$;
-- +goose StatementEnd

-- Every INSERT into events, whoever sends it, takes the append lock before
-- the identity column draws a position, and queues the wake-up NOTIFY that
-- PostgreSQL delivers to listeners when (and only if) the transaction commits.
-- The payload is empty: a notification is only a hint to go and read.
-- +goose StatementBegin
CREATE FUNCTION towow_events_serialize() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM towow_lock_events(), pg_notify('towow_events', '');
    RETURN NULL;
END;
$$;
-- +goose StatementEnd

-- A BEFORE ... FOR EACH STATEMENT trigger fires before any row of the
-- statement is built, so before the identity default draws a position.
CREATE TRIGGER events_serialize BEFORE INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION towow_events_serialize();

-- towow_append appends events to one stream atomically; it is the only
-- append path the Go code uses (eventstore.AppendTx). In one round trip it
--   1. takes the append lock (held until the calling transaction ends),
--   2. reports 'duplicate' with the stored rows if any event id is stored,
--   3. reports 'conflict' with the actual version if p_expected (-1 any,
--      0 no stream, n exact) does not hold,
--   4. inserts the events with versions current+1.. and reports 'appended'.
-- Doing this server-side keeps the lock hold time to this call plus COMMIT.
-- Every read here is a point lookup that must use its index. PL/pgSQL caches
-- a generic plan per statement; one cached while the table was tiny (a hash
-- join over a sequential scan) would otherwise stay in use as the log grows,
-- so the planner is told not to scan or hash (SET clauses below).
-- +goose StatementBegin
CREATE FUNCTION towow_append(
    p_stream_id   text,
    p_expected    bigint,
    p_event_ids   uuid[],
    p_event_types text[],
    p_payloads    jsonb[],
    p_metadatas   jsonb[]
) RETURNS TABLE (
    outcome         text,
    global_position bigint,
    stream_id       text,
    stream_version  bigint,
    event_id        uuid,
    event_type      text,
    recorded_at     timestamptz
)
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
    v_current bigint;
BEGIN
    PERFORM towow_lock_events();

    IF EXISTS (SELECT 1 FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN
        RETURN QUERY
            SELECT 'duplicate'::text, e.global_position, e.stream_id, e.stream_version,
                   e.event_id, e.event_type::text, e.recorded_at
            FROM events e
            WHERE e.event_id = ANY (p_event_ids)
            ORDER BY e.global_position;
        RETURN;
    END IF;

    SELECT coalesce(max(e.stream_version), 0) INTO v_current
    FROM events e WHERE e.stream_id = p_stream_id;
    IF p_expected <> -1 AND p_expected <> v_current THEN
        RETURN QUERY SELECT 'conflict'::text, NULL::bigint, p_stream_id, v_current,
                            NULL::uuid, NULL::text, NULL::timestamptz;
        RETURN;
    END IF;

    RETURN QUERY
        INSERT INTO events AS e (event_id, stream_id, stream_version, event_type, payload, metadata)
        SELECT u.id, p_stream_id, v_current + u.ord, u.typ, u.payload, u.meta
        FROM unnest(p_event_ids, p_event_types, p_payloads, p_metadatas)
             WITH ORDINALITY AS u(id, typ, payload, meta, ord)
        ORDER BY u.ord
        RETURNING 'appended'::text, e.global_position, e.stream_id, e.stream_version,
                  e.event_id, e.event_type::text, e.recorded_at;
END;
$$;
-- +goose StatementEnd

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
DROP FUNCTION towow_append(text, bigint, uuid[], text[], jsonb[], jsonb[]);
DROP TABLE events;
DROP FUNCTION towow_events_immutable();
DROP FUNCTION towow_events_serialize();
DROP FUNCTION towow_lock_events();
