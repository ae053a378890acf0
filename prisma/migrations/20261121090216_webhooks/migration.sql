-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_reason" TEXT,
    "disabled_at" TIMESTAMPTZ(3),
    "failing_since" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_secrets" (
    "id" BIGSERIAL NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "body" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "duration_ms" INTEGER NOT NULL,
    "response_excerpt" TEXT,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_workspace_id_created_at_idx" ON "webhook_endpoints"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "webhook_secrets_endpoint_id_idx" ON "webhook_secrets"("endpoint_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_status_created_at_idx" ON "webhook_deliveries"("endpoint_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries"("created_at");

-- CreateIndex
CREATE INDEX "webhook_attempts_delivery_id_at_idx" ON "webhook_attempts"("delivery_id", "at");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Fan-out (ARCHITECTURE "Shape", D30, D31): every recorded event becomes one delivery and one
-- pipeline job per enabled endpoint of its workspace that subscribes to it, in the
-- transaction that records the event, whichever code path wrote it.
CREATE FUNCTION webhook_fanout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id, event_name, next_attempt_at, created_at, updated_at)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), NEW.workspace_id, e.id, NEW.id, NEW.name, now(), now(), now()
    FROM webhook_endpoints e
    WHERE e.workspace_id = NEW.workspace_id AND e.enabled
      AND (e.events IS NULL OR cardinality(e.events) = 0 OR NEW.name = ANY (e.events))
    RETURNING id, workspace_id, endpoint_id
  )
  INSERT INTO jobs (id, kind, subject_id, workspace_id, payload, run_at)
  SELECT 'job_' || replace(gen_random_uuid()::text, '-', ''), 'webhook.deliver', d.id, d.workspace_id,
    jsonb_build_object('endpoint_id', d.endpoint_id), now()
  FROM d;
  RETURN NULL;
END $$;

CREATE TRIGGER events_webhook_fanout AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION webhook_fanout();

-- The retention sweep (D33's 30 days, expired idempotency records, old rate and pacing
-- counters): one self-rescheduling job, so it runs once across all instances.
INSERT INTO jobs (id, kind, subject_id, workspace_id, run_at) VALUES ('job_sweep', 'maintenance.sweep', 'sweep', '', now());
