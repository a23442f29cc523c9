-- name: CreatePersonalKey :exec
-- Records @subject's data key unless it has one (two processes sealing for
-- a new subject at once: the first row wins, the other reads it back).
INSERT INTO personal_keys (key_id, subject, wrapped_key)
VALUES (@key_id, @subject::text, @wrapped_key)
ON CONFLICT (subject) DO NOTHING;

-- name: PersonalKeyOfSubject :one
-- The data key of @subject: wrapped_key is null once erased.
SELECT key_id, wrapped_key FROM personal_keys WHERE subject = @subject::text;

-- name: PersonalKeyByID :one
-- A data key by its id: wrapped_key is null once erased.
SELECT key_id, wrapped_key, erased_at FROM personal_keys WHERE key_id = @key_id;

-- name: ErasePersonalKey :one
-- Destroys @subject's data key; the row keeps the subject, so that nothing
-- is sealed for it again. No row: the subject never had a key, or it is
-- erased already.
UPDATE personal_keys SET wrapped_key = NULL, erased_at = @erased_at::timestamptz
WHERE subject = @subject::text AND erased_at IS NULL
RETURNING key_id;

-- name: MarkSubjectErased :exec
-- Records @subject as erased though nothing of it was sealed yet: a text
-- sealed for it later is stored as erased.
INSERT INTO personal_keys (key_id, subject, erased_at)
VALUES (@key_id, @subject::text, @erased_at::timestamptz)
ON CONFLICT (subject) DO NOTHING;

-- name: TreesOfUser :many
-- The negotiation trees and the workflows @user_id started: the roots
-- their events are correlated by. Demands first, through the index of a
-- user's submissions (events_user_demands_idx).
SELECT (metadata ->> 'correlation_id')::text AS root FROM events
WHERE event_type = 'towow.demand.submitted' AND payload ->> 'user_id' = @user_id::text
  AND coalesce(metadata ->> 'correlation_id', '') <> ''
UNION
SELECT (metadata ->> 'correlation_id')::text FROM events
WHERE event_type = 'towow.workflow.created' AND payload ->> 'user_id' = @user_id::text
  AND coalesce(metadata ->> 'correlation_id', '') <> ''
ORDER BY root;

-- name: EventsAfter :many
-- A page of the log after @after_position, as stored, for sealing the
-- personal texts of events written before they were sealed.
SELECT global_position, event_id, stream_id, event_type, payload, metadata
FROM events
WHERE global_position > @after_position
ORDER BY global_position
LIMIT @max_count;

-- name: AllowResealing :exec
-- Lets this transaction (only) replace events' payload and metadata
-- (towow_events_immutable).
SELECT set_config('towow.resealing', 'on', true);

-- name: ResealEvent :exec
UPDATE events SET payload = @payload, metadata = @metadata WHERE event_id = @event_id;
