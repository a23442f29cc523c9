-- name: ChildChannels :many
-- A channel's sub-negotiations (the channels it spawned for gaps), in the
-- order they were opened.
SELECT channel_id FROM channels WHERE parent_channel_id = @channel_id ORDER BY created_at, channel_id;
