// The workflow node types, from the server (GET /api/v1/workflows/node-types,
// built from the domain's table of node types): the console's only list of
// node types, their labels for people, their shapes and which a person may
// add from the form.
import { api } from "../api.js";

let loaded = null; // the promise of the node types
let byType = new Map(); // type → its entry

// loadNodeTypes fetches the node types once (again after a failure).
export function loadNodeTypes() {
  if (!loaded) {
    loaded = api("/api/v1/workflows/node-types").then((out) => {
      byType = new Map(out.node_types.map((t) => [t.type, t]));
      return out.node_types;
    });
    loaded.catch(() => { loaded = null; });
  }
  return loaded;
}

// nodeTypeLabel names a node type for people (the type itself before the
// list is loaded or for a type it does not list).
export const nodeTypeLabel = (type) => (byType.get(type) || {}).label || type;

// isPill reports whether the canvas draws a node of the type as a pill.
export const isPill = (type) => Boolean((byType.get(type) || {}).pill);

// addableTypes are the types a person adds from the form: [type, label].
export const addableTypes = () => [...byType.values()].filter((t) => t.console_add).map((t) => [t.type, t.label]);

// typeInfo is the type's entry: default_timeout_seconds, start, retried…
// (an empty one for a type the list does not have).
export const typeInfo = (type) => byType.get(type) || { needs: [] };

// answeredByUser reports whether a running node of the type waits for a
// person's answer over the API (its approver's: approve or reject).
export const answeredByUser = (type) => (byType.get(type) || {}).answer === "user";

// typeNeeds lists the fields a node of the type has (its needs, optional
// ones too), e.g. assignee_id for the type that has an assignee.
export const typeNeeds = (type) => (byType.get(type) || {}).needs || [];
