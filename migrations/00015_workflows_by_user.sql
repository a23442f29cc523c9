-- +goose Up
-- A person's own workflows are listed by user (GET /api/v1/workflows
-- without a demand).
CREATE INDEX workflows_by_user ON workflows (user_id);

-- +goose Down
DROP INDEX workflows_by_user;
