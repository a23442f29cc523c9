-- name: CreatePersonalKey :exec
-- Records @subject's data key unless it has one (two processes sealing for
-- a new subject at once: the first row wins, the other reads it back).
INSERT INTO personal_keys (key_id, subject, wrapped_key)
VALUES (@key_id, @subject::text, @wrapped_key)
ON CONFLICT (subject) DO NOTHING;

-- name: PersonalKeyOfSubject :one
-- The live data key of @subject.
SELECT key_id, wrapped_key FROM personal_keys WHERE subject = @subject::text;

-- name: PersonalKeyByID :one
-- A data key by its id: wrapped_key is null once erased.
SELECT key_id, wrapped_key, erased_at FROM personal_keys WHERE key_id = @key_id;

-- name: ErasePersonalKey :one
-- Destroys @subject's data key: the row keeps only its id and when it was
-- erased. No row: the subject never had a key (or it is already erased).
UPDATE personal_keys SET subject = NULL, wrapped_key = NULL, erased_at = @erased_at::timestamptz
WHERE subject = @subject::text
RETURNING key_id;
