-- +goose Up
-- Events are immutable, with one exception: `towow personal seal` seals
-- the personal texts of events written before they were sealed. In the
-- transaction that does it (towow.resealing set to 'on' for that
-- transaction only) an UPDATE that changes nothing but payload and
-- metadata passes; every other UPDATE, DELETE and TRUNCATE is refused as
-- before.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION towow_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND current_setting('towow.resealing', true) = 'on'
       AND (NEW.global_position, NEW.event_id, NEW.stream_id, NEW.stream_version, NEW.event_type, NEW.recorded_at)
           IS NOT DISTINCT FROM (OLD.global_position, OLD.event_id, OLD.stream_id, OLD.stream_version, OLD.event_type, OLD.recorded_at) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$;
-- +goose StatementEnd

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION towow_events_immutable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'raise_exception';
END;
$$;
-- +goose StatementEnd
