// Must not type-check: a create_node decision without its node, and a
// decision type the document does not have. TestTypeScriptClient checks
// that strict tsc refuses both (the unions are enforced, not decoration).
import type { components } from "./towow";

type Decision = components["schemas"]["DecisionInputBody"];

export const missingNode: Decision = { decision_type: "create_node", base_version: 1, payload: {} };
export const unknownType: Decision = { decision_type: "rename_node", base_version: 1 };
