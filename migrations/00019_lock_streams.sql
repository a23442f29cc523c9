-- +goose Up
-- towow_lock_streams takes the write lock of each of p_streams, in the
-- order given (callers sort them, so two writers never wait on each other
-- in a cycle), each held until the calling transaction ends (the key
-- towow_append takes), then returns each stream's version as it is once
-- they are all held: a statement of a volatile function sees every
-- transaction committed before it started, and so every write made under
-- those locks before. A writer that caches a stream's events then knows,
-- in one round trip, whether it holds them all.
-- +goose StatementBegin
CREATE FUNCTION towow_lock_streams(p_streams text[])
RETURNS TABLE (stream_id text, version bigint)
LANGUAGE plpgsql
SET enable_seqscan = off -- a point lookup each, however small the table looks to the planner
AS $$
DECLARE
    v_stream text;
BEGIN
    FOREACH v_stream IN ARRAY p_streams LOOP
        PERFORM pg_advisory_xact_lock(hashtextextended(v_stream, 0));
    END LOOP;
    RETURN QUERY
        SELECT s.id, coalesce((SELECT max(e.stream_version) FROM events e WHERE e.stream_id = s.id), 0)::bigint
        FROM unnest(p_streams) AS s(id);
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION towow_lock_streams(text[]);
