-- +goose Up
-- Payloads and metadata above about 2 KB (plans, proposals, sealed model
-- answers) are compressed when stored and decompressed at every read.
-- lz4 does both for a fraction of the CPU pglz takes; rows stored before
-- keep pglz, which PostgreSQL still reads. A server built without lz4
-- keeps pglz for new rows too.
-- +goose StatementBegin
DO $$
BEGIN
    ALTER TABLE events ALTER COLUMN payload SET COMPRESSION lz4,
                       ALTER COLUMN metadata SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    RAISE NOTICE 'this PostgreSQL server has no lz4: events stay compressed with pglz';
END;
$$;
-- +goose StatementEnd

-- +goose Down
ALTER TABLE events ALTER COLUMN payload SET COMPRESSION default,
                   ALTER COLUMN metadata SET COMPRESSION default;
