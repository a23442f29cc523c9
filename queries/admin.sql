-- Session-level coordination between processes. CREATE/DROP/ALTER DATABASE
-- and LISTEN are not here: they take identifiers, which cannot be bind
-- parameters, so sqlc cannot express them (see internal/dbtest, cmd/towow
-- bench.go and eventstore/notifier.go).

-- name: AdvisoryLock :exec
SELECT pg_advisory_lock(@key::bigint);

-- name: AdvisoryUnlock :one
SELECT pg_advisory_unlock(@key::bigint);

-- name: DatabaseExists :one
SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = @name::text);

-- name: LockStreams :many
-- Serializes the writes on these streams (steps and commands) for the rest
-- of the transaction (uow.UnitOfWork.Commit; the streams come sorted), and
-- returns each one's version once it is locked.
SELECT stream_id::text AS stream_id, version::bigint AS version FROM towow_lock_streams(@stream_ids::text[]);

-- name: TryLockStreams :many
-- LockStreams without waiting: no rows when another transaction holds one
-- of the streams (uow.UnitOfWork.Commit, for streams that sort before one it
-- holds).
SELECT stream_id::text AS stream_id, version::bigint AS version FROM towow_try_lock_streams(@stream_ids::text[]);

-- name: TableSizes :many
-- Every table of the schema with its indexes and TOAST, in bytes.
SELECT c.relname::text AS name, pg_total_relation_size(c.oid)::bigint AS bytes
FROM pg_catalog.pg_class c
WHERE c.relkind IN ('r', 'p') AND c.relnamespace = current_schema()::regnamespace
ORDER BY c.relname;

-- name: AnalyzeEvents :exec
-- Fresh planner statistics for the events table (autovacuum would gather
-- them too, later): a bulk load runs it before it measures queries.
ANALYZE events;
