import type { ServerResponse } from "node:http";
import type { Database } from "../db/client.ts";
import type { Columns } from "../db/rows.ts";
import { EVENT_NAMES } from "../events/event-names.ts";
import type { Caller } from "../lib/caller.ts";
import { AppError, invalid } from "../lib/errors.ts";
import { pipelineWaker } from "../outbox/wake.ts";
import { eventBody } from "./event-body.ts";

// GET /webhook-events/stream (D77): the workspace's test-mode events as Server-Sent Events, for
// `svc listen`. A stream holds no database connection while it waits: it sleeps until this
// process's wake-up (server/outbox/wake.ts: new outbox work, which every event with a delivery
// or a run to wake makes, and a NOTIFY from other instances on PostgreSQL) or its next poll,
// then reads what was recorded since with one short statement.

export const MAX_STREAMS_PER_KEY = 5;
/** A stream that sent no event for this long is closed (svc listen opens it again). */
export const STREAM_IDLE_MS = 60 * 60_000;
/** The poll that catches events no wake-up announced (events with nothing to deliver). */
const POLL_MS = 1_000;
/** A comment line that keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/**
 * Events are read again from this far before the newest one sent, since transactions commit
 * out of the order of their `created_at`; the ids already sent are skipped.
 */
const OVERLAP_MS = 10_000;

const openByKey = new Map<string, number>();

type EventRow = Columns<"events", "id" | "name" | "mode" | "workspace_id" | "data" | "created_at">;

const READ = `
  SELECT id, name, mode::text AS mode, workspace_id, data, created_at FROM events
  WHERE workspace_id = $1 AND mode = 'test' AND created_at > $2 AND ($3::text[] IS NULL OR name = ANY($3::text[]))
  ORDER BY created_at, id LIMIT 500`;

export async function streamEvents(
  res: ServerResponse,
  database: Database,
  caller: Extract<Caller, { kind: "key" }>,
  query: URLSearchParams,
): Promise<void> {
  if (caller.mode !== "test") {
    throw new AppError("test_key_required", "This endpoint streams test-mode events: call it with a test key (svc_test_…).");
  }
  const names =
    query
      .get("events")
      ?.split(",")
      .map((n) => n.trim())
      .filter(Boolean) ?? null;
  const unknown = names?.find((n) => !(EVENT_NAMES as readonly string[]).includes(n));
  if (unknown !== undefined) throw invalid("parameter_invalid", `events: ${unknown} is not an event name.`, "events");
  const open = openByKey.get(caller.keyId) ?? 0;
  if (open >= MAX_STREAMS_PER_KEY) {
    throw new AppError(
      "too_many_streams",
      `This key already has ${MAX_STREAMS_PER_KEY} event streams open; close one before opening another.`,
    );
  }
  openByKey.set(caller.keyId, open + 1);

  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  res.write(`: streaming test-mode events of ${caller.workspaceId}\n\n`);
  const sent = new Map<string, number>(); // event id -> created_at (ms), pruned past the overlap
  let since = Date.now() - 1_000;
  let lastEventAt = Date.now();
  let closed = false;
  let reading = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const waker = pipelineWaker();

  const read = async () => {
    if (closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const rows = await database.query<EventRow>(READ, [caller.workspaceId, new Date(since - OVERLAP_MS), names]);
        for (const row of rows) {
          const at = new Date(row.created_at).getTime();
          if (sent.has(row.id)) continue;
          sent.set(row.id, at);
          since = Math.max(since, at);
          lastEventAt = Date.now();
          const body = eventBody({ ...row, created_at: new Date(row.created_at) });
          res.write(`id: ${row.id}\nevent: ${row.name}\ndata: ${body}\n\n`);
        }
        for (const [id, at] of sent) if (at < since - 2 * OVERLAP_MS) sent.delete(id);
        if (rows.length === 500) again = true;
      } while (again && !closed);
    } catch {
      // The database is briefly unreachable: the next wake-up or poll reads again.
    } finally {
      reading = false;
    }
  };
  // A busy process wakes many times a second: one read per 200 ms at most.
  let soon: NodeJS.Timeout | null = null;
  const onWake = () => {
    soon ??= setTimeout(() => {
      soon = null;
      void read();
    }, 200);
  };
  const tick = () => {
    if (closed) return;
    if (Date.now() - lastEventAt > STREAM_IDLE_MS) {
      res.end();
      return;
    }
    void read().finally(() => {
      if (!closed) timer = setTimeout(tick, POLL_MS);
    });
  };
  const keepalive = setInterval(() => res.write(":\n\n"), KEEPALIVE_MS);
  await new Promise<void>((resolve) => {
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepalive);
      if (timer) clearTimeout(timer);
      if (soon) clearTimeout(soon);
      waker.off("wake", onWake);
      const left = (openByKey.get(caller.keyId) ?? 1) - 1;
      if (left > 0) openByKey.set(caller.keyId, left);
      else openByKey.delete(caller.keyId);
      resolve();
    };
    res.once("close", close);
    waker.setMaxListeners(0); // one listener per open stream
    waker.on("wake", onWake);
    tick();
  });
}
