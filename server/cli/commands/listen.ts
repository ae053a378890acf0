import { EVENT_NAMES } from "../../events/event-names.ts";
import { generateSecret } from "../../webhooks/endpoint-secret.ts";
import { signatureHeader, standardWebhooksHeaders, SIGNATURE_HEADER } from "../../webhooks/signature.ts";
import { optionalString, requiredString, UsageError, type Command } from "../command.ts";

// `svc listen` (D77): a developer's laptop receives the workspace's test-mode events without
// exposing a port. It reads GET /webhook-events/stream of the API (never the database) with a
// test key and POSTs each event to --forward-to, signed as the service signs its deliveries
// (X-svc-Signature and the Standard Webhooks headers) with a secret made at start and printed.

const DEFAULT_API_URL = "http://localhost:3000";
/** The longest wait before a dropped stream is opened again. */
const MAX_RECONNECT_MS = 30_000;

/** The service's origin as given, with or without a trailing `/api/v1`, to the API's base. */
export function apiBase(given: string): string {
  const origin = given
    .trim()
    .replace(/\/+$/, "")
    .replace(/\/api\/v1$/, "");
  return `${origin}/api/v1`;
}

type Received = { id: string; event: string; data: string };

/** Splits a Server-Sent Events text into its events (those complete so far) and the rest. */
export function parseEvents(buffer: string): { events: Received[]; rest: string } {
  const events: Received[] = [];
  const blocks = buffer.split(/\r?\n\r?\n/);
  const rest = blocks.pop() ?? "";
  for (const block of blocks) {
    const fields: Record<string, string> = {};
    for (const line of block.split(/\r?\n/)) {
      if (!line || line.startsWith(":")) continue;
      const at = line.indexOf(":");
      const name = at < 0 ? line : line.slice(0, at);
      const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
      fields[name] = name in fields ? `${fields[name]}\n${value}` : value;
    }
    if (fields.data !== undefined) events.push({ id: fields.id ?? "", event: fields.event ?? "message", data: fields.data });
  }
  return { events, rest };
}

export const listen: Command = {
  name: "listen",
  summary: "Forward the workspace's test-mode events to a local URL, signed (no public endpoint needed)",
  usage: "listen --forward-to URL [--events e1,e2,…] [--api-url URL] [--api-key KEY]",
  help: [
    ["--forward-to URL", "where each event is POSTed, e.g. http://localhost:4000/webhooks"],
    ["--events LIST", `comma-separated event names; every event when absent (${EVENT_NAMES.join(", ")})`],
    ["--api-url URL", `the service's URL, with or without /api/v1 (or SVC_API_URL; default ${DEFAULT_API_URL})`],
    ["--api-key KEY", "a test key with the scope webhooks:read (or SVC_API_KEY)"],
    ["", "Prints a signing secret at start: verify the forwarded requests with it, as you verify deliveries."],
  ],
  options: { "forward-to": { type: "string" }, events: { type: "string" }, "api-url": { type: "string" }, "api-key": { type: "string" } },
  async run(values) {
    const forwardTo = requiredString(values, "forward-to");
    if (!URL.canParse(forwardTo)) throw new UsageError(`--forward-to must be a URL (got "${forwardTo}").`);
    const key = optionalString(values, "api-key") ?? process.env.SVC_API_KEY;
    if (!key) throw new UsageError("--api-key (or SVC_API_KEY) is required: a test key with the scope webhooks:read.");
    const base = apiBase(optionalString(values, "api-url") ?? process.env.SVC_API_URL ?? DEFAULT_API_URL);
    const events = optionalString(values, "events");
    const streamUrl = `${base}/webhook-events/stream${events ? `?events=${encodeURIComponent(events)}` : ""}`;
    const secret = generateSecret();
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    let forwarded = 0;
    let announced = false;
    let wait = 500;
    try {
      while (!stop.signal.aborted) {
        let response: Response;
        try {
          response = await fetch(streamUrl, {
            headers: { Authorization: `Bearer ${key}`, Accept: "text/event-stream" },
            signal: stop.signal,
          });
        } catch (err) {
          if (stop.signal.aborted) break;
          process.stderr.write(`svc listen: cannot reach ${base} (${(err as Error).message}); trying again.\n`);
          await sleep(wait, stop.signal);
          wait = Math.min(wait * 2, MAX_RECONNECT_MS);
          continue;
        }
        if (!response.ok || !response.body) {
          const text = await response.text().catch(() => "");
          let message = text;
          try {
            message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
          } catch {
            // not JSON
          }
          // A refusal (key, scope, mode, too many streams) will not change by retrying.
          if (response.status < 500) throw new Error(`the API answered ${response.status}: ${message}`);
          await sleep(wait, stop.signal);
          wait = Math.min(wait * 2, MAX_RECONNECT_MS);
          continue;
        }
        wait = 500;
        if (!announced) {
          announced = true;
          process.stdout.write(
            [
              `Ready: forwarding the test-mode events of ${base} to ${forwardTo}.`,
              `Webhook signing secret: ${secret}`,
              "(verify the forwarded requests with it, as you verify the service's deliveries; Ctrl-C stops)",
              "",
            ].join("\n"),
          );
        }
        const decoder = new TextDecoder();
        let buffer = "";
        try {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            buffer += decoder.decode(chunk, { stream: true });
            const parsed = parseEvents(buffer);
            buffer = parsed.rest;
            for (const event of parsed.events) {
              process.stdout.write(
                `${new Date().toISOString()}  ${event.event}  ${event.id}  -> ${await forward(forwardTo, event, secret)}\n`,
              );
              forwarded++;
            }
          }
        } catch (err) {
          if (stop.signal.aborted) break;
          process.stderr.write(`svc listen: the stream was cut (${(err as Error).message}); opening it again.\n`);
        }
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
    return { json: { forwarded, secret }, text: `Stopped after forwarding ${forwarded} event${forwarded === 1 ? "" : "s"}.` };
  },
};

/** POSTs one event, signed with both schemes; the answer's status, or why there was none. */
async function forward(url: string, event: Received, secret: string): Promise<string> {
  const now = new Date();
  try {
    const res = await fetch(url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": "svc-listen",
        [SIGNATURE_HEADER]: signatureHeader(event.data, [secret], now),
        "X-svc-Event-Id": event.id,
        ...standardWebhooksHeaders(event.id, event.data, [secret], now),
      },
      body: event.data,
    });
    await res.arrayBuffer().catch(() => {});
    return String(res.status);
  } catch (err) {
    return `failed (${(err as Error).message})`;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
