-- AlterTable
ALTER TABLE "events" ADD COLUMN     "request_id" TEXT,
ADD COLUMN     "traceparent" TEXT;

-- AlterTable
ALTER TABLE "jobs" ADD COLUMN     "request_id" TEXT,
ADD COLUMN     "traceparent" TEXT;

-- An event's webhook deliveries carry the request that caused it and its trace context.
CREATE OR REPLACE FUNCTION webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_name, next_attempt_at, created_at, updated_at)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.workspace_id, e.id, NEW.id, NEW.name, now(), now(), now()
    FROM webhook_endpoints e
    WHERE e.workspace_id = NEW.workspace_id AND e.enabled
      AND (e.events IS NULL OR cardinality(e.events) = 0 OR NEW.name = ANY (e.events))
    RETURNING id, workspace_id, endpoint_id
  )
  INSERT INTO jobs (id, kind, subject_id, workspace_id, payload, run_at, request_id, traceparent)
  SELECT 'job_' || replace(gen_random_uuid()::text, '-', ''), 'webhook.deliver', d.id, d.workspace_id,
    jsonb_build_object('endpoint_id', d.endpoint_id), now(), NEW.request_id, NEW.traceparent
  FROM d;
  RETURN NULL;
END $$;
