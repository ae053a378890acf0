import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { EVENT_NAMES } from "../../events/event-names.ts";
import { generateSecret } from "../../webhooks/endpoint-secret.ts";
import { signatureHeader, standardWebhooksHeaders, SIGNATURE_HEADER } from "../../webhooks/signature.ts";
import { API_FLAGS, apiHelp, apiRefusal, apiTarget } from "../api-client.ts";
import { requiredString, UsageError, type Command } from "../command.ts";

// `svc listen` (D77): a developer's laptop receives the workspace's test-mode events without
// exposing a port. It reads GET /webhook-events/stream of the API (never the database) with a
// test key and POSTs each event to --forward-to, signed as the service signs its deliveries
// (X-svc-Signature and the Standard Webhooks headers). Its signing secret and the last event
// it forwarded are kept per workspace and key (`listenStatePath`), so a receiver keeps its
// secret across starts, and a dropped stream or a new start resumes after that event
// (`Last-Event-ID`): nothing is missed (docs/webhooks.md, "Event stream").

/** The longest wait before a dropped stream is opened again. */
const MAX_RECONNECT_MS = 30_000;
/** The last event forwarded is saved at most this often while events flow, and at every stop. */
const SAVE_EVERY_MS = 1_000;

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

/** One workspace and key's: the signing secret, and the last event forwarded. */
type State = { secret: string; last_event_id?: string };

/** Where `svc listen` keeps its state: `$XDG_CONFIG_HOME/svc/listen.json` (default `~/.config`). */
export function listenStatePath(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "svc", "listen.json");
}

/** The state's entry of a workspace and key: the key itself is never written, only a digest of it. */
function stateKey(workspace: string, key: string): string {
  return `${workspace}/${createHash("sha256").update(key).digest("hex").slice(0, 16)}`;
}

function readStates(path: string): Record<string, State> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, State>;
  } catch {
    return {};
  }
}

/** Writes one entry, keeping the others (other workspaces, keys); readable by its owner only. */
function saveState(path: string, entry: string, state: State): void {
  const states = readStates(path);
  states[entry] = state;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(states, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

export const listen: Command = {
  name: "listen",
  summary: "Forward the workspace's test-mode events to a local URL, signed (no public endpoint needed)",
  usage: "listen --forward-to URL [--events e1,e2,…] [--rotate-secret] [--api-url URL] [--api-key KEY]",
  help: [
    ["--forward-to URL", "where each event is POSTed, e.g. http://localhost:4000/webhooks"],
    ["--events LIST", `comma-separated event names; every event when absent (${EVENT_NAMES.join(", ")})`],
    ["--rotate-secret", "make a new signing secret instead of the one kept for this workspace and key"],
    ...apiHelp("webhooks:read"),
    ["", "Prints its signing secret at start: verify the forwarded requests with it, as you verify deliveries. The"],
    ["", `secret and the last event forwarded are kept in ${listenStatePath()}: a new start resumes after it.`],
  ],
  options: { "forward-to": { type: "string" }, events: { type: "string" }, "rotate-secret": { type: "boolean" }, ...API_FLAGS },
  async run(values) {
    const forwardTo = requiredString(values, "forward-to");
    if (!URL.canParse(forwardTo)) throw new UsageError(`--forward-to must be a URL (got "${forwardTo}").`);
    const { base, key } = apiTarget(values, "webhooks:read");
    const json = values.json === true;
    const events = values.events;
    const streamUrl = `${base}/webhook-events/stream${typeof events === "string" ? `?events=${encodeURIComponent(events)}` : ""}`;
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    const headers = { Authorization: `Bearer ${key}`, Accept: "text/event-stream" };
    const statePath = listenStatePath();
    let entry: string | null = null;
    let state: State | null = null;
    let savedAt = 0;
    const save = () => {
      if (entry && state) saveState(statePath, entry, state);
      savedAt = Date.now();
    };
    let forwarded = 0;
    let wait = 500;
    const retry = async (why: string) => {
      process.stderr.write(`svc listen: ${why}; trying again.\n`);
      await sleep(wait, stop.signal);
      wait = Math.min(wait * 2, MAX_RECONNECT_MS);
    };
    try {
      while (!stop.signal.aborted) {
        let response: Response;
        try {
          if (!state) {
            // The key's workspace names its secret and resume point.
            const check = await fetch(base, { headers, signal: stop.signal });
            if (!check.ok) {
              if (check.status < 500) throw await apiRefusal(check);
              await retry(`the API answered ${check.status}`);
              continue;
            }
            const { workspace } = (await check.json()) as { workspace: string };
            entry = stateKey(workspace, key);
            const kept = readStates(statePath)[entry];
            state = kept && !values["rotate-secret"] ? kept : { ...kept, secret: generateSecret() };
          }
          response = await fetch(streamUrl, {
            headers: { ...headers, ...(state.last_event_id ? { "Last-Event-ID": state.last_event_id } : {}) },
            signal: stop.signal,
          });
        } catch (err) {
          if (stop.signal.aborted) break;
          if (!(err instanceof TypeError)) throw err; // a refusal, not a network failure
          await retry(`cannot reach ${base} (${err.message})`);
          continue;
        }
        if (!response.ok || !response.body) {
          // A refusal (key, scope, mode, too many streams) will not change by retrying.
          if (response.status < 500) throw await apiRefusal(response);
          await retry(`the API answered ${response.status}`);
          continue;
        }
        if (!savedAt) {
          save(); // a new or rotated secret is kept before it is shown
          const workspace = entry!.split("/")[0];
          const resumed = state.last_event_id ?? null;
          process.stdout.write(
            json
              ? `${JSON.stringify({ secret: state.secret, workspace, forward_to: forwardTo, api_url: base, resumed_after: resumed, state_file: statePath })}\n`
              : [
                  `Ready: forwarding the test-mode events of ${base} (workspace ${workspace}) to ${forwardTo}.`,
                  `Webhook signing secret: ${state.secret}`,
                  `(kept for this workspace and key in ${statePath}; --rotate-secret makes a new one)`,
                  ...(resumed ? [`Resuming after ${resumed}, the last event forwarded before.`] : []),
                  "(verify the forwarded requests with it, as you verify the service's deliveries; Ctrl-C stops)",
                  "",
                ].join("\n"),
          );
        }
        const decoder = new TextDecoder();
        let buffer = "";
        let closedBy: string | null = null;
        try {
          for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            wait = 500;
            buffer += decoder.decode(chunk, { stream: true });
            const parsed = parseEvents(buffer);
            buffer = parsed.rest;
            for (const event of parsed.events) {
              if (stop.signal.aborted) break; // the rest is forwarded after the next start
              if (!event.id && event.event.startsWith("stream.")) {
                const notice = JSON.parse(event.data) as { message?: string };
                if (event.event === "stream.closed") closedBy = notice.message ?? event.data;
                if (event.event === "stream.not_resumed") process.stderr.write(`svc listen: ${notice.message}\n`);
                continue;
              }
              const result = await forward(forwardTo, event, state.secret);
              const at = new Date().toISOString();
              process.stdout.write(
                json
                  ? `${JSON.stringify({ at, event: event.event, id: event.id, ...result })}\n`
                  : `${at}  ${event.event}  ${event.id}  -> ${result.status ?? `failed (${result.error})`}\n`,
              );
              forwarded++;
              state.last_event_id = event.id;
              if (Date.now() - savedAt >= SAVE_EVERY_MS) save();
            }
          }
          if (stop.signal.aborted) break;
          await retry(closedBy ? `the service closed the stream: ${closedBy}` : "the stream ended");
        } catch (err) {
          if (stop.signal.aborted) break;
          await retry(`the stream was cut (${(err as Error).message})`);
        }
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      if (savedAt) save();
    }
    return {
      json: { forwarded, last_event_id: state?.last_event_id ?? null },
      text: `Stopped after forwarding ${forwarded} event${forwarded === 1 ? "" : "s"}.`,
    };
  },
};

/** POSTs one event, signed with both schemes: the answer's status, or why there was none. */
async function forward(url: string, event: Received, secret: string): Promise<{ status: number | null; error?: string }> {
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
    return { status: res.status };
  } catch (err) {
    return { status: null, error: (err as Error).message };
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
