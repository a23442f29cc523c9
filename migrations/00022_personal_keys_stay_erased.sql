-- +goose Up
-- An erased key keeps its subject, so that an erasure is final: a text
-- sealed later for that subject (a step of a negotiation still running,
-- a process that read it before the erasure) is stored as erased instead
-- of under a new key. Subjects are the pseudonymous ids the log keeps
-- anyway ("tree:<root demand id>", "user:<id>", "agent:<id>").
ALTER TABLE personal_keys DROP CONSTRAINT personal_keys_check;
ALTER TABLE personal_keys ADD CONSTRAINT personal_keys_erased CHECK ((erased_at IS NULL) = (wrapped_key IS NOT NULL));
ALTER TABLE personal_keys ALTER COLUMN subject SET NOT NULL;

-- +goose Down
DELETE FROM personal_keys WHERE erased_at IS NOT NULL AND subject IS NULL;
ALTER TABLE personal_keys DROP CONSTRAINT personal_keys_erased;
UPDATE personal_keys SET subject = NULL WHERE erased_at IS NOT NULL;
ALTER TABLE personal_keys ALTER COLUMN subject DROP NOT NULL;
ALTER TABLE personal_keys ADD CONSTRAINT personal_keys_check CHECK ((erased_at IS NULL) = (subject IS NOT NULL AND wrapped_key IS NOT NULL));
