-- +goose Up
-- The workflows read model (projections/workflows.go): one row per workflow
-- stream, holding the workflow as the domain's fold (workflow.Workflow.Apply)
-- leaves it after the stream's last event, and the cursor of that event.
-- state is the folded workflow.Workflow as encoding/json writes it;
-- demand_id, channel_id and user_id are copies of its fields that the open
-- nodes' query returns. A stream whose workflow was never created (a
-- decision refused before the agreement) has a row whose state is no
-- workflow: the read functions treat it as none.
CREATE TABLE workflows (
    workflow_id    text PRIMARY KEY,
    demand_id      text        NOT NULL,
    channel_id     text        NOT NULL,
    user_id        text        NOT NULL,
    state          jsonb       NOT NULL,
    last_position  bigint      NOT NULL  -- the stream's last event folded: the canvas's cursor
);

-- The nodes of a workflow that wait for someone: running task nodes (for
-- their assignee's inbox) and running approval nodes (for the demand's
-- user). Rewritten with the workflow's row at every event of its stream.
CREATE TABLE workflow_open_nodes (
    workflow_id text   NOT NULL,
    node_id     text   NOT NULL,
    node_type   text   NOT NULL, -- task or approval
    assignee    text   NOT NULL, -- a task's agent, an approval's user
    ordinal     int    NOT NULL, -- the node's place in the workflow's nodes (creation order)
    node        jsonb  NOT NULL, -- the workflow.WorkflowNode
    PRIMARY KEY (workflow_id, node_id)
);
CREATE INDEX workflow_open_nodes_assignee_idx ON workflow_open_nodes (node_type, assignee);

-- +goose Down
DROP TABLE workflow_open_nodes;
DROP TABLE workflows;
