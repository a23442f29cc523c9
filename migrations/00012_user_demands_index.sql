-- +goose Up
-- Prompt 1's user_context reads a user's earlier root demands
-- (queries/user_history.sql UserEarlierDemands): their submissions by user,
-- in log order, without scanning every submission.
CREATE INDEX events_user_demands_idx ON events ((payload ->> 'user_id'), global_position)
    WHERE event_type = 'towow.demand.submitted';

-- +goose Down
DROP INDEX events_user_demands_idx;
