-- Relations ToWow's queries read that migrations/ does not create, as far as
-- the queries read them, for sqlc only (sqlc.yaml): this file is never run.
-- River's job table is created and migrated by River (rivermigrate, see
-- internal/schema); pg_locks is PostgreSQL's view (pg_catalog comes first in
-- every search path, so the queries read the real one).
CREATE TYPE river_job_state AS ENUM (
    'available', 'cancelled', 'completed', 'discarded', 'pending', 'retryable', 'running', 'scheduled'
);

CREATE TABLE river_job (
    id bigserial PRIMARY KEY,
    state river_job_state NOT NULL DEFAULT 'available',
    attempt smallint NOT NULL DEFAULT 0,
    attempted_at timestamptz,
    attempted_by text[],
    kind text NOT NULL,
    scheduled_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pg_locks (
    locktype text,
    classid oid,
    objid oid,
    objsubid smallint,
    granted boolean
);
