-- +goose Up
-- towow_try_lock_streams is towow_lock_streams without waiting: it takes the
-- write lock of each of p_streams (the key towow_append takes) and returns
-- each stream's version, unless another transaction holds one of them: then
-- it returns no rows (the locks it took before that one stay held until the
-- transaction ends; the caller then rolls it back). Never waiting, a writer
-- may take locks out of the one order (sorted) in which writers wait for
-- them without waiting on a writer that waits on it: a commit that finds
-- it must append to a stream sorting before one it holds tries it this
-- way, and only when that fails starts over with every lock in order.
-- +goose StatementBegin
CREATE FUNCTION towow_try_lock_streams(p_streams text[])
RETURNS TABLE (stream_id text, version bigint)
LANGUAGE plpgsql AS $$
DECLARE
    v_stream text;
BEGIN
    FOREACH v_stream IN ARRAY p_streams LOOP
        IF NOT pg_try_advisory_xact_lock(hashtextextended(v_stream, 0)) THEN
            RETURN;
        END IF;
    END LOOP;
    -- Every lock is held now: towow_lock_streams takes them again without
    -- waiting (a transaction's advisory locks are reentrant) and reads the
    -- versions.
    RETURN QUERY SELECT * FROM towow_lock_streams(p_streams);
END;
$$;
-- +goose StatementEnd

-- +goose Down
DROP FUNCTION towow_try_lock_streams(text[]);
