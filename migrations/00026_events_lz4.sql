-- +goose Up
-- Payloads and metadata above about 2 KB (plans, proposals, sealed model
-- answers) are compressed when stored and decompressed at every read.
-- lz4 does both for a fraction of the CPU pglz takes; rows stored before
-- keep pglz, which PostgreSQL still reads. A server built without lz4,
-- or older than 14 (which has no per-column compression), keeps pglz for
-- new rows too: the statement runs through EXECUTE, so that even its
-- syntax is checked only when it runs, inside the handler.
-- +goose StatementBegin
DO $$
BEGIN
    EXECUTE 'ALTER TABLE events ALTER COLUMN payload SET COMPRESSION lz4, '
            'ALTER COLUMN metadata SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error THEN
    RAISE NOTICE 'this PostgreSQL server cannot compress with lz4: events stay compressed with pglz';
END;
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE events ALTER COLUMN payload SET COMPRESSION default,
                   ALTER COLUMN metadata SET COMPRESSION default;
