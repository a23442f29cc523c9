-- Liveness of the processes that work River's jobs. Each process holds,
-- for its lifetime, a session advisory lock keyed by its River client id;
-- PostgreSQL releases it when the process's connection ends, whatever
-- killed it. A running job whose last worker (the last entry of
-- attempted_by) holds no such lock belongs to a dead process: it is made
-- available again at once, instead of waiting for River's rescuer
-- (TOWOW_JOB_RESCUE_AFTER plus up to 30 s). A step is safe to run twice.

-- name: HoldWorkerLock :exec
-- Blocks until the lock is held (it is free: the id is this process's).
SELECT pg_advisory_lock(hashtextextended(@client_id::text, 0));

-- name: RescueOrphanedJobs :many
-- Jobs of ToWow processes (client ids starting with towow-) that were
-- fetched more than min_age ago by a process that no longer holds its lock.
UPDATE river_job
SET state = 'available', scheduled_at = now()
WHERE state = 'running'
  AND attempted_at < now() - make_interval(secs => @min_age_seconds::float8)
  AND attempted_by[array_upper(attempted_by, 1)] LIKE 'towow-%'
  AND NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
      AND ((l.classid::bigint << 32) | l.objid::bigint) = hashtextextended(attempted_by[array_upper(attempted_by, 1)], 0)
  )
RETURNING id, kind, attempt;
