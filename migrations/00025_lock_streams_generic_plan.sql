-- +goose Up
-- towow_lock_streams' query over its array of streams was planned anew at
-- every call: a custom plan, sized to the array it was given, always looked
-- cheaper than the generic one, sized to a default of ten streams. Its
-- plan is the same for any array (an index lookup per stream), so the
-- function is told to plan it once per connection.
ALTER FUNCTION towow_lock_streams(text[]) SET plan_cache_mode = force_generic_plan;

-- +goose Down
ALTER FUNCTION towow_lock_streams(text[]) RESET plan_cache_mode;
