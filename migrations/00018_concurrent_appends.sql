-- +goose Up
-- Appends to different streams commit in parallel. There is no store-wide
-- append lock and no NOTIFY inside an appending transaction any more (a
-- NOTIFY takes PostgreSQL's notification-queue lock from pre-commit to the
-- end of commit, which lines every notifying commit up behind the one
-- before).
--
-- Order. An event's global_position is
--     towow_position_base() + (its transaction's id << 16) + n,
-- n counting the events that transaction appended before it (at most 65,536
-- a transaction). So the log is ordered by transaction id, then by append
-- order within a transaction, and positions are known when the events are
-- inserted (an append returns them; read-your-writes waits for them).
-- A transaction id is drawn when a transaction first writes, so a
-- transaction still in flight may yet commit events below positions that
-- are already visible. Readers therefore read only below
-- towow_settled_below(): the position of the oldest transaction of this
-- database still in flight. Below it every transaction has ended, so
-- nothing can appear there any more, and a cursor never skips an event.
-- See eventstore/doc.go.
--
-- towow_position_base is fixed when this migration runs: above every
-- position handed out before, so positions keep rising across the upgrade.
-- +goose StatementBegin
DO $$
BEGIN
    EXECUTE format(
        'CREATE FUNCTION towow_position_base() RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L',
        'SELECT ' || (SELECT coalesce(max(global_position), 0) FROM events)::text || '::bigint');
END;
$$;
-- +goose StatementEnd

DROP TRIGGER events_serialize ON events;
DROP FUNCTION towow_events_serialize();
ALTER TABLE events ALTER COLUMN global_position DROP IDENTITY;

-- towow_settled_below returns the lowest position a transaction in flight
-- may still write: every transaction whose id is in the current snapshot's
-- in-progress list, except those seen running in another database (they
-- cannot write this events table), and otherwise the snapshot's next id.
-- A transaction that has ended since the snapshot was taken still counts
-- (its events are not in the snapshot); one seen in another database never
-- writes here, however stale that sighting is. Transactions of other
-- databases, however long, therefore never hold readers back; nor do
-- transactions that declared they append nothing (application_name ending
-- in "(no appends)", set for the transaction before its first write, as a
-- read-model rebuild does: towow_take_positions refuses them). It must be
-- STABLE: a stable function runs on its caller's snapshot, the one the
-- caller's read of events runs on (a volatile one would take a newer one).
-- +goose StatementBegin
CREATE FUNCTION towow_settled_below() RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN towow_position_base() + (coalesce(
        (SELECT min(x::text::bigint)
         FROM pg_snapshot_xip(pg_current_snapshot()) AS x
         WHERE (x::text::bigint & 4294967295) NOT IN (
             SELECT a.backend_xid::text::bigint
             FROM pg_stat_get_activity(NULL) AS a
             WHERE a.backend_xid IS NOT NULL
               AND (a.datid IS DISTINCT FROM (SELECT d.oid FROM pg_database d WHERE d.datname = current_database())
                    OR a.application_name LIKE '%(no appends)'))),
        pg_snapshot_xmax(pg_current_snapshot())::text::bigint) << 16);
END;
$$;
-- +goose StatementEnd

-- towow_tx_appended is how many positions the transaction with id p_xid
-- (the calling one) has taken so far. It is kept in the session setting
-- towow.tx_events as "<transaction id>:<count>": a transaction-local
-- setting would be undone when towow_append returns (a function with SET
-- clauses restores every setting changed with is_local on exit), while a
-- session setting survives the function and is rolled back with the
-- (sub)transaction that set it.
-- +goose StatementBegin
CREATE FUNCTION towow_tx_appended(p_xid bigint) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_s text := coalesce(current_setting('towow.tx_events', true), '');
BEGIN
    IF starts_with(v_s, p_xid::text || ':') THEN
        RETURN substr(v_s, length(p_xid::text) + 2)::bigint;
    END IF;
    RETURN 0;
END;
$$;
-- +goose StatementEnd

-- towow_take_positions takes the next p_count positions of the calling
-- transaction (at most 65,536 in all) and returns the first. Calling it
-- gives the transaction an id if it had none.
-- +goose StatementBegin
CREATE FUNCTION towow_take_positions(p_count bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_xid  bigint := pg_current_xact_id()::text::bigint;
    v_used bigint := towow_tx_appended(v_xid);
BEGIN
    IF current_setting('application_name') LIKE '%(no appends)' THEN
        RAISE EXCEPTION 'this transaction declared it appends no events (application_name %)', current_setting('application_name')
            USING ERRCODE = 'read_only_sql_transaction';
    END IF;
    IF v_used + p_count > 65536 THEN
        RAISE EXCEPTION 'one transaction appends at most 65536 events'
            USING ERRCODE = 'program_limit_exceeded';
    END IF;
    PERFORM set_config('towow.tx_events', v_xid::text || ':' || (v_used + p_count)::text, false);
    RETURN towow_position_base() + (v_xid << 16) + v_used;
END;
$$;
-- +goose StatementEnd

-- A row inserted without a position (psql, a future migration) gets the
-- next one of its transaction. A writer that gives positions itself must
-- give ones its transaction took (towow_take_positions): the store does not
-- check them, so that a restore (COPY with the stored positions) goes
-- through, but any other could fall below what readers have passed.
ALTER TABLE events ALTER COLUMN global_position SET DEFAULT towow_take_positions(1);

-- towow_rebase_positions moves towow_position_base up when the next
-- position would not be above every stored one: after the log was restored
-- into another cluster, whose transaction ids start lower. It reports
-- whether it did. The server runs it after migrating.
-- +goose StatementBegin
CREATE FUNCTION towow_rebase_positions() RETURNS boolean
LANGUAGE plpgsql AS $f$
DECLARE
    v_max  bigint;
    v_base bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended('towow_rebase_positions', 0));
    SELECT max(global_position) INTO v_max FROM events;
    -- A transaction that starts now takes an id at or above the snapshot's
    -- next one; while its first position is above every stored one, there
    -- is nothing to do (that is always so, except after a restore).
    IF v_max IS NULL
       OR towow_position_base() + (pg_snapshot_xmax(pg_current_snapshot())::text::bigint << 16) > v_max THEN
        RETURN false;
    END IF;
    v_base := v_max + 1 - (pg_snapshot_xmin(pg_current_snapshot())::text::bigint << 16);
    EXECUTE format(
        'CREATE OR REPLACE FUNCTION towow_position_base() RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS %L',
        'SELECT ' || v_base::text || '::bigint');
    RETURN true;
END;
$f$;
-- +goose StatementEnd

-- towow_append appends events to one stream atomically; it is the only
-- append path the Go code uses (eventstore.AppendTx). In one round trip it
--   1. takes the stream's lock (held until the calling transaction ends;
--      the same key as eventstore.Store.LockStream), so appends to one
--      stream queue while appends to others go on in parallel,
--   2. reports 'duplicate' with the stored rows if any event id is stored,
--   3. reports 'conflict' with the actual version if p_expected (-1 any,
--      0 no stream, n exact) does not hold, or if this transaction's id
--      is older than that of the stream's last event (its events would be
--      ordered before that event: retry in a new transaction),
--   4. inserts the events with versions current+1.. at consecutive
--      positions it takes (towow_take_positions) and reports 'appended'.
-- Every read here is a point lookup that must use its index (see the
-- first version of this function for why the planner is told so).
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION towow_append(
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
    v_head    bigint;
    v_first   bigint;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_stream_id, 0));

    IF EXISTS (SELECT 1 FROM events e WHERE e.event_id = ANY (p_event_ids)) THEN
        RETURN QUERY
            SELECT 'duplicate'::text, e.global_position, e.stream_id, e.stream_version,
                   e.event_id, e.event_type::text, e.recorded_at
            FROM events e
            WHERE e.event_id = ANY (p_event_ids)
            ORDER BY e.global_position;
        RETURN;
    END IF;

    SELECT e.stream_version, e.global_position INTO v_current, v_head
    FROM events e WHERE e.stream_id = p_stream_id
    ORDER BY e.stream_version DESC LIMIT 1;
    v_current := coalesce(v_current, 0);
    IF p_expected <> -1 AND p_expected <> v_current THEN
        RETURN QUERY SELECT 'conflict'::text, NULL::bigint, p_stream_id, v_current,
                            NULL::uuid, NULL::text, NULL::timestamptz;
        RETURN;
    END IF;

    v_first := towow_take_positions(cardinality(p_event_ids));
    IF v_head >= v_first THEN
        RETURN QUERY SELECT 'conflict'::text, NULL::bigint, p_stream_id, v_current,
                            NULL::uuid, NULL::text, NULL::timestamptz;
        RETURN;
    END IF;

    RETURN QUERY
        INSERT INTO events AS e (global_position, event_id, stream_id, stream_version, event_type, payload, metadata)
        SELECT v_first + u.ord - 1, u.id, p_stream_id, v_current + u.ord, u.typ, u.payload, u.meta
        FROM unnest(p_event_ids, p_event_types, p_payloads, p_metadatas)
             WITH ORDINALITY AS u(id, typ, payload, meta, ord)
        ORDER BY u.ord
        RETURNING 'appended'::text, e.global_position, e.stream_id, e.stream_version,
                  e.event_id, e.event_type::text, e.recorded_at;
END;
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE events ALTER COLUMN global_position DROP DEFAULT;
DROP FUNCTION towow_rebase_positions();
-- +goose StatementBegin
DO $$
BEGIN
    EXECUTE format('ALTER TABLE events ALTER COLUMN global_position ADD GENERATED ALWAYS AS IDENTITY (START WITH %s)',
                   (SELECT coalesce(max(global_position), 0) + 1 FROM events));
END;
$$;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE FUNCTION towow_events_serialize() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM towow_lock_events(), pg_notify('towow_events', '');
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER events_serialize BEFORE INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION towow_events_serialize();
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION towow_append(
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
DROP FUNCTION towow_take_positions(bigint);
DROP FUNCTION towow_tx_appended(bigint);
DROP FUNCTION towow_settled_below();
DROP FUNCTION towow_position_base();
