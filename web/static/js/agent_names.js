// Agents' names for people. A page shows an agent by its display name,
// never by its id: names come with the answers that carry them (a
// workflow's names, a plan's display_name) and, for the others, from GET
// /api/v1/agents/{id}, asked once per id while the console is open.
import { api } from "./api.js";

const known = new Map(); // agent id → its name ("" : it has none, or no such agent)
const asked = new Map(); // agent id → the promise of its lookup

// learnNames remembers names given by an answer (id → name).
export function learnNames(names) {
  for (const [id, name] of Object.entries(names || {})) if (id && name) known.set(id, name);
}

// knownName is the agent's name when known (undefined when not asked yet,
// "" when it has none).
export const knownName = (id) => known.get(id);

// looksLikeAgentId: an id as the server writes them (user_agent_bob),
// not a role or a person's words.
export const looksLikeAgentId = (s) => typeof s === "string" && /^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(s);

// lookUpNames asks the server for the names of the ids not known yet; it
// resolves once every answer is in (a failed lookup leaves the id without
// a name).
export function lookUpNames(ids) {
  const wanted = [...new Set(ids)].filter((id) => id && !known.has(id));
  return Promise.all(wanted.map((id) => {
    if (!asked.has(id)) {
      asked.set(id, api("/api/v1/agents/" + encodeURIComponent(id))
        .then((a) => { known.set(id, (a.profile && a.profile.user_name) || ""); })
        .catch(() => { known.set(id, ""); }));
    }
    return asked.get(id);
  }));
}

// UNNAMED is what stands for an agent whose name is not known.
export const UNNAMED = "未署名的参与者";

// agentName names an agent for people: its name, else UNNAMED (never its id).
export const agentName = (id) => known.get(id) || UNNAMED;
