import { EVENT_NAMES } from "../../events/event-names.ts";
import { API_FLAGS, apiHelp, apiRefusal, apiTarget } from "../api-client.ts";
import { UsageError, type Command } from "../command.ts";

// `svc trigger EVENT`: a sample test-mode event of that name, recorded through the API
// (`POST /webhook-events/trigger`), so that `svc listen` forwards it and the test-mode
// endpoints that take it receive it: a receiver is tried without sending a message.

export const trigger: Command = {
  name: "trigger",
  summary: "Fire a sample test-mode event into the workspace's event stream (what svc listen forwards)",
  usage: "trigger EVENT [--api-url URL] [--api-key KEY]",
  argument: "event",
  help: [["EVENT", `the event's name: ${EVENT_NAMES.join(", ")}`], ...apiHelp("webhooks:write")],
  options: { ...API_FLAGS },
  async run(values) {
    const event = values.event;
    if (typeof event !== "string") throw new UsageError(`EVENT is required: one of ${EVENT_NAMES.join(", ")}.`);
    if (!(EVENT_NAMES as readonly string[]).includes(event)) {
      throw new UsageError(`EVENT must be one of ${EVENT_NAMES.join(", ")} (got "${event}").`);
    }
    const { base, key } = apiTarget(values, "webhooks:write");
    const response = await fetch(`${base}/webhook-events/trigger`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({ event }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!response.ok) throw await apiRefusal(response);
    const { id } = (await response.json()) as { id: string };
    return { json: { id, event }, text: `Triggered ${event}: ${id} (svc listen forwards it).` };
  },
};
