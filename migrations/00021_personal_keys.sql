-- +goose Up
-- personal_keys holds one data key per data subject (a person or an
-- agent's owner): personal fields are stored sealed with it (AES-256-GCM),
-- and destroying it erases them everywhere at once, backups taken after
-- included (crypto-shredding). key_id is random, so that an erasure can be
-- recorded without naming the subject. wrapped_key is the data key as the
-- key provider wrapped it (the local provider stores it as it is; a KMS
-- would wrap it with a key it never hands out). An erased row keeps its
-- key_id and erased_at, and nothing else: subject and key are gone.
CREATE TABLE personal_keys (
    key_id      uuid PRIMARY KEY,
    subject     text UNIQUE,
    wrapped_key bytea,
    created_at  timestamptz NOT NULL DEFAULT now(),
    erased_at   timestamptz,
    CHECK ((erased_at IS NULL) = (subject IS NOT NULL AND wrapped_key IS NOT NULL))
);

-- +goose Down
DROP TABLE personal_keys;
