-- Runs that started waiting before "waiting_at" existed (20261127140139_flow_step_stats) have it
-- null, and a timed wait left their "position" on the step after the wait: the step statistics
-- (coalesce(waiting_at, position)) and the run's current step counted them one step later until
-- they moved on. Such a run's last history entry is the 'waiting' entry its wait wrote, at the
-- wait's step: that is where it waits. The statistics follow through their trigger.
UPDATE "flow_runs" r SET "waiting_at" = h."position"
FROM (
  SELECT DISTINCT ON ("run_id") "run_id", "kind", "position"
  FROM "flow_run_history"
  WHERE "run_id" IN (SELECT "id" FROM "flow_runs" WHERE "status" = 'active' AND "waiting_at" IS NULL)
  ORDER BY "run_id", "id" DESC
) h
WHERE h."run_id" = r."id" AND h."kind" = 'waiting' AND jsonb_typeof(h."position") = 'array'
  AND r."status" = 'active' AND r."waiting_at" IS NULL;
