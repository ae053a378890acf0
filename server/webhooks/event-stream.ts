import type { IncomingHttpHeaders, ServerResponse } from "node:http";
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
// then reads what was recorded since with two short statements (docs/webhooks.md, "Event stream").
//
// Its cursor is the pair (transaction id, event id) of the last event read (`events.txid`), and
// it reads only events of transactions older than the oldest one still running when the read
// began (`NOW`, read just before): those have all committed or never will, so an event that
// commits late is never skipped and none is sent twice. (The cursor was `created_at` with a window of 10 s read again and 500 rows a read: a
// burst of more than 500 events within 10 s read the same 500 rows for ever, issue 46.) The
// select list gives the id as text under another name (`cursor_txid`): ordered by that text,
// "1000" sorts before "999", and a page read in that order skipped every event of the
// transactions between (a store whose transaction ids passed 999, 9999, … during a burst).
// Naming the column `events.txid` in ORDER BY was not enough: Citus (D87) sends a worker the
// statement with the ORDER BY written as the select list's name.

export const MAX_STREAMS_PER_KEY = 5;
/** A stream that sent no event for this long is closed (svc listen opens it again). */
export const STREAM_IDLE_MS = 60 * 60_000;
/** How far back `Last-Event-ID` resumes a stream: the event named must be at most this old. */
export const RESUME_WINDOW_MS = 24 * 60 * 60_000;
/** A client that leaves events unread this long while more wait is disconnected as too slow. */
export const SLOW_READER_MS = 30_000;
/**
 * After its last words, a disconnected slow reader's connection is cut this much later, unless
 * it read them by then; it no longer counts against its key's streams from the last words on.
 */
const SLOW_READER_GRACE_MS = 120_000;
/** The poll that catches events no wake-up announced (events with nothing to deliver). */
const POLL_MS = 1_000;
/** A comment line that keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** Events a read takes at most; a full page is followed by another read at once. */
const PAGE = 500;

const openByKey = new Map<string, number>();

type EventRow = Columns<"events", "id" | "name" | "mode" | "workspace_id" | "data" | "created_at"> & { cursor_txid: string };
type Cursor = { txid: string; id: string };

/**
 * The oldest transaction still running: where a new stream starts, so none of them is missed,
 * and the horizon a read stays below. A statement of its own, read before the page: on Citus
 * (D87) `events.txid` is the coordinator's transaction id (the default is evaluated there), while
 * a snapshot taken inside a statement on `events` is the worker's, whose ids count apart (an
 * event stayed unread until that worker's own ids passed the coordinator's).
 */
const NOW = `SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS txid`;

const READ = `
  SELECT id, name, mode::text AS mode, workspace_id, data, created_at, txid::text AS cursor_txid FROM events
  WHERE workspace_id = $1 AND mode = 'test' AND txid IS NOT NULL AND (txid, id) > ($2::xid8, $3::text) AND txid < $4::xid8
  ORDER BY txid, id LIMIT ${PAGE}`;

const RESUME_FROM = `
  SELECT txid::text AS txid FROM events
  WHERE id = $1 AND workspace_id = $2 AND mode = 'test' AND txid IS NOT NULL AND created_at > $3`;

/** A stream's own message (no `id:`, so `Last-Event-ID` stays the last event's): `stream.*`. */
function notice(name: "stream.resumed" | "stream.not_resumed" | "stream.closed", data: Record<string, unknown>): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export async function streamEvents(
  res: ServerResponse,
  database: Database,
  caller: Extract<Caller, { kind: "key" }>,
  query: URLSearchParams,
  headers: IncomingHttpHeaders = {},
): Promise<void> {
  if (caller.mode !== "test") {
    throw new AppError("test_key_required", "This endpoint serves test-mode events: call it with a test key (svc_test_…).");
  }
  const names =
    query
      .get("events")
      ?.split(",")
      .map((n) => n.trim())
      .filter(Boolean) ?? null;
  const unknown = names?.find((n) => !(EVENT_NAMES as readonly string[]).includes(n));
  if (unknown !== undefined) throw invalid("parameter_invalid", `events: ${unknown} is not an event name.`, "events");
  const wanted = names ? new Set(names) : null;
  const open = openByKey.get(caller.keyId) ?? 0;
  if (open >= MAX_STREAMS_PER_KEY) {
    throw new AppError(
      "too_many_streams",
      `This key already has ${MAX_STREAMS_PER_KEY} event streams open; close one before opening another.`,
    );
  }
  openByKey.set(caller.keyId, open + 1);
  let counted = true;
  const release = () => {
    if (!counted) return;
    counted = false;
    const left = (openByKey.get(caller.keyId) ?? 1) - 1;
    if (left > 0) openByKey.set(caller.keyId, left);
    else openByKey.delete(caller.keyId);
  };

  let cursor: Cursor;
  let greeting: string;
  try {
    const lastEventId = [headers["last-event-id"]].flat()[0]?.trim();
    const [resumed] = lastEventId
      ? await database.query<{ txid: string }>(RESUME_FROM, [lastEventId, caller.workspaceId, new Date(Date.now() - RESUME_WINDOW_MS)])
      : [];
    if (lastEventId && resumed) {
      cursor = { txid: resumed.txid, id: lastEventId };
      greeting = notice("stream.resumed", { after: lastEventId });
    } else {
      const [now] = await database.query<{ txid: string }>(NOW);
      cursor = { txid: now!.txid, id: "" };
      greeting = lastEventId
        ? notice("stream.not_resumed", {
            after: lastEventId,
            reason: "unknown_event",
            message: `Last-Event-ID ${lastEventId} is not a test-mode event of this workspace from the last 24 hours: the stream starts from now.`,
          })
        : "";
    }
  } catch (err) {
    release();
    throw err;
  }

  res.writeHead(200, {
    "Content-Type": "text/event-stream; charset=utf-8",
    "Cache-Control": "no-cache",
    Connection: "keep-alive",
    "X-Accel-Buffering": "no",
  });
  res.write(`: streaming test-mode events of ${caller.workspaceId}\n\n${greeting}`);
  let lastEventAt = Date.now();
  let closed = false;
  let reading = false;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  const waker = pipelineWaker();

  /** Ends the stream with its reason, readable by the client after the events before it. */
  const hangUp = (reason: "slow_reader" | "idle", message: string) => {
    if (closed || res.writableEnded) return;
    res.end(notice("stream.closed", { reason, message }));
    release();
    // A client that reads nothing more never lets the end through: its connection is cut.
    setTimeout(() => res.destroy(), SLOW_READER_GRACE_MS).unref();
  };

  /** Resolves once the client took what was written (true), or false when it was disconnected. */
  const drained = () =>
    new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(slow);
        res.off("drain", onDrain);
        res.off("close", onClose);
        resolve(ok);
      };
      const onDrain = () => done(true);
      const onClose = () => done(false);
      const slow = setTimeout(() => {
        hangUp(
          "slow_reader",
          `The client read nothing for ${SLOW_READER_MS / 1000} s while events waited: the stream is closed. ` +
            "Open it again with Last-Event-ID to resume after the last event received.",
        );
        done(false);
      }, SLOW_READER_MS);
      res.once("drain", onDrain);
      res.once("close", onClose);
    });

  const read = async () => {
    if (closed || res.writableEnded) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        const [horizon] = await database.query<{ txid: string }>(NOW);
        const rows = await database.query<EventRow>(READ, [caller.workspaceId, cursor.txid, cursor.id, horizon!.txid]);
        let full = false;
        for (const row of rows) {
          cursor = { txid: row.cursor_txid, id: row.id };
          if (wanted && !wanted.has(row.name)) continue;
          lastEventAt = Date.now();
          const body = eventBody({ ...row, created_at: new Date(row.created_at) });
          if (!res.write(`id: ${row.id}\nevent: ${row.name}\ndata: ${body}\n\n`)) full = true;
        }
        // The page read is written whole (it is in memory already; reading it again for the few
        // events a full socket took cost a page's read per write); the next page is read once
        // the client took it: what it has not read waits in the database, not in memory.
        if (full && !(await drained())) return;
        if (rows.length === PAGE) again = true;
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
      hangUp("idle", `No event for ${STREAM_IDLE_MS / 60_000} minutes: the stream is closed.`);
      return;
    }
    void read().finally(() => {
      if (!closed) timer = setTimeout(tick, POLL_MS);
    });
  };
  const keepalive = setInterval(() => {
    if (!res.writableEnded) res.write(":\n\n");
  }, KEEPALIVE_MS);
  await new Promise<void>((resolve) => {
    const close = () => {
      if (closed) return;
      closed = true;
      clearInterval(keepalive);
      if (timer) clearTimeout(timer);
      if (soon) clearTimeout(soon);
      waker.off("wake", onWake);
      release();
      resolve();
    };
    res.once("close", close);
    waker.setMaxListeners(0); // one listener per open stream
    waker.on("wake", onWake);
    tick();
  });
}
