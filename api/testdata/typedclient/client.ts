// A client of ToWow written against the TypeScript types openapi-typescript
// generates from the served OpenAPI document, with openapi-fetch. It
// type-checks under strict tsc without a single cast: every answer it
// reads (the demand, its agreed plan, the workflows, the decision) is
// typed by the document. TestTypeScriptClient (api) compiles it and runs
// it against a real server.
import createClient from "openapi-fetch";
import type { components, paths } from "./towow";

type Proposal = components["schemas"]["Proposal"];
type Decision = components["schemas"]["DecisionInputBody"];

/** What the run found, printed by run.mjs for the Go test to check. */
export interface Outcome {
  demandId: string;
  status: "processing" | "completed" | "failed";
  outcome: string;
  summary: string;
  roles: string[];
  workflows: number;
  workflowId: string;
  versionBefore: number;
  versionAfter: number;
  corrections: number;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Submits a demand, waits for its plan, reads it, lists its workflows and adds a step to one. */
export async function run(baseUrl: string, token: string, text: string): Promise<Outcome> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

  const submitted = await client.POST("/api/v1/demand/submit", { body: { raw_input: text } });
  if (submitted.error) {
    throw new Error(`submit: ${submitted.error.detail ?? submitted.error.title ?? "refused"}`);
  }
  const demandId = submitted.data.demand_id;
  // The read model answers once it has caught up with the submission.
  let cursor = submitted.data.cursor;

  let plan: Proposal | undefined;
  let status: Outcome["status"] = "processing";
  let outcome = "";
  for (let i = 0; i < 600 && status === "processing"; i++) {
    const got = await client.GET("/api/v1/demands/{demand_id}", {
      params: { path: { demand_id: demandId }, query: { min_cursor: cursor } },
    });
    if (got.error) {
      throw new Error(`get demand: ${got.error.detail ?? "refused"}`);
    }
    status = got.data.status;
    outcome = got.data.outcome ?? "";
    plan = got.data.final_proposal;
    cursor = got.data.last_position;
    if (status === "processing") {
      await sleep(100);
    }
  }
  if (plan === undefined) {
    throw new Error(`the demand ended ${status} without a plan`);
  }
  const roles = plan.assignments.map((a) => `${a.display_name ?? a.agent_id}: ${a.role}`);

  let workflow: components["schemas"]["WorkflowView"] | undefined;
  let workflows = 0;
  for (let i = 0; i < 300 && workflow === undefined; i++) {
    const listed = await client.GET("/api/v1/workflows", {
      params: { query: { demand_id: demandId, min_cursor: cursor } },
    });
    if (listed.error) {
      throw new Error(`list workflows: ${listed.error.detail ?? "refused"}`);
    }
    workflows = listed.data.workflows.length;
    workflow = listed.data.workflows[0];
    if (workflow === undefined) {
      await sleep(100);
    }
  }
  if (workflow === undefined) {
    throw new Error("the agreement became no workflow");
  }

  const decision: Decision = {
    decision_type: "create_node",
    base_version: workflow.version,
    payload: {
      node: { type: "milestone", title: "活动结束复盘" },
      after: workflow.nodes.map((n) => n.id).slice(-1),
    },
  };
  const decided = await client.POST("/api/v1/workflows/{workflow_id}/decisions", {
    params: { path: { workflow_id: workflow.workflow_id } },
    body: decision,
  });
  if (decided.error) {
    throw new Error(`decide: ${decided.error.detail ?? "refused"}`);
  }

  return {
    demandId,
    status,
    outcome,
    summary: plan.summary,
    roles,
    workflows,
    workflowId: workflow.workflow_id,
    versionBefore: workflow.version,
    versionAfter: decided.data.version,
    corrections: decided.data.corrections.length,
  };
}
