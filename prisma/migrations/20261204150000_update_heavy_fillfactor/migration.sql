-- Room on each page for the new versions of rows that are updated soon after they are
-- written, so that an update whose columns no index covers stays on its page (a HOT update)
-- instead of writing a new entry in every index of the table (docs/architecture.md,
-- "Database"). A setting of the table's storage only: it applies to pages written from now on.

-- A message changes status two or three times within seconds of its insert (sent, delivered,
-- read); none of its seven indexes covers its status or timestamps.
ALTER TABLE "messages" SET (fillfactor = 80);

-- A job is claimed (lease columns, no index) and settled within seconds, then deleted.
ALTER TABLE "jobs" SET (fillfactor = 50);

-- A key is claimed, then completed with the response it replays (a longer row).
ALTER TABLE "idempotency_records" SET (fillfactor = 50);
