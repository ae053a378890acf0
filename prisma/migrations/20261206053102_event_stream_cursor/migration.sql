-- The event stream's cursor (GET /webhook-events/stream, docs/webhooks.md "Event stream"): the
-- transaction that recorded each event. Added without a default first, so that the table is
-- not rewritten: events recorded before it keep null (a stream resumes from them by time).
ALTER TABLE "events" ADD COLUMN "txid" xid8;
ALTER TABLE "events" ALTER COLUMN "txid" SET DEFAULT pg_current_xact_id();

-- Streams read a workspace's test-mode events in the order of this cursor; live events, the
-- bulk of the table, stay out of the index. A partial index: Prisma's diff ignores it.
CREATE INDEX "events_stream_idx" ON "events" ("workspace_id", "txid", "id") WHERE "mode" = 'test' AND "txid" IS NOT NULL;
