// The event catalog, from the server (GET /api/v1/events/catalog, built
// from the domain's registry): the console's only list of event types and
// their labels for people.
import { api } from "./api.js";

let loaded = null; // the promise of the catalog's entries
let labels = new Map(); // type → label

// loadCatalog fetches the catalog once (again after a failure).
export function loadCatalog() {
  if (!loaded) {
    loaded = api("/api/v1/events/catalog").then((out) => {
      labels = new Map(out.events.map((e) => [e.type, e.label]));
      return out.events;
    });
    loaded.catch(() => { loaded = null; });
  }
  return loaded;
}

// eventTypes resolves to every event type, the listeners a stream needs.
export const eventTypes = () => loadCatalog().then((events) => events.map((e) => e.type));

// eventLabel names an event type for people (the type itself before the
// catalog is loaded or for a type it does not list).
export const eventLabel = (type) => labels.get(type) || type.replace(/^towow\./, "");

// eventLine is an event of the API in one line: its label and summary.
export const eventLine = (ev) => eventLabel(ev.event_type) + (ev.summary ? "：" + ev.summary : "");
