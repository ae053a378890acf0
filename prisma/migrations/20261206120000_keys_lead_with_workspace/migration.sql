-- DropForeignKey
ALTER TABLE "api_keys" DROP CONSTRAINT "api_keys_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "channels" DROP CONSTRAINT "channels_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "contact_events" DROP CONSTRAINT "contact_events_contact_id_fkey";

-- DropForeignKey
ALTER TABLE "contact_events" DROP CONSTRAINT "contact_events_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "contact_tags" DROP CONSTRAINT "contact_tags_contact_id_fkey";

-- DropForeignKey
ALTER TABLE "contact_tags" DROP CONSTRAINT "contact_tags_tag_id_fkey";

-- DropForeignKey
ALTER TABLE "contacts" DROP CONSTRAINT "contacts_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "custom_fields" DROP CONSTRAINT "custom_fields_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "dashboard_sessions" DROP CONSTRAINT "dashboard_sessions_user_id_fkey";

-- DropForeignKey
ALTER TABLE "events" DROP CONSTRAINT "events_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "flow_run_history" DROP CONSTRAINT "flow_run_history_run_id_fkey";

-- DropForeignKey
ALTER TABLE "flow_runs" DROP CONSTRAINT "flow_runs_flow_id_fkey";

-- DropForeignKey
ALTER TABLE "flow_step_stats" DROP CONSTRAINT "flow_step_stats_flow_id_fkey";

-- DropForeignKey
ALTER TABLE "flow_versions" DROP CONSTRAINT "flow_versions_flow_id_fkey";

-- DropForeignKey
ALTER TABLE "flows" DROP CONSTRAINT "flows_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_user_id_fkey";

-- DropForeignKey
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "message_history" DROP CONSTRAINT "message_history_message_id_fkey";

-- DropForeignKey
ALTER TABLE "messages" DROP CONSTRAINT "messages_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "suppressions" DROP CONSTRAINT "suppressions_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "tags" DROP CONSTRAINT "tags_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_delivery_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_endpoint_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_workspace_id_fkey";

-- DropForeignKey
ALTER TABLE "webhook_secrets" DROP CONSTRAINT "webhook_secrets_endpoint_id_fkey";

-- DropForeignKey
ALTER TABLE "whatsapp_templates" DROP CONSTRAINT "whatsapp_templates_channel_id_fkey";

-- DropIndex
DROP INDEX "contact_events_contact_id_mode_name_created_at_idx";

-- DropIndex
DROP INDEX "contact_tags_tag_id_idx";

-- DropIndex
DROP INDEX "events_contact_id_created_at_id_idx";

-- DropIndex
DROP INDEX "flow_run_history_run_id_at_idx";

-- DropIndex
DROP INDEX "flow_runs_contact_id_status_idx";

-- DropIndex
DROP INDEX "flow_runs_contact_id_wait_event_idx";

-- DropIndex
DROP INDEX "flow_runs_flow_id_created_at_id_idx";

-- DropIndex
DROP INDEX "flow_runs_flow_id_status_created_at_id_idx";

-- DropIndex
DROP INDEX "flow_runs_wait_message_id_idx";

-- DropIndex
DROP INDEX "jobs_subject_id_idx";

-- DropIndex
DROP INDEX "memberships_workspace_id_idx";

-- DropIndex
DROP INDEX "message_history_message_id_at_idx";

-- DropIndex
DROP INDEX "webhook_attempts_delivery_id_at_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_endpoint_id_created_at_id_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_endpoint_id_status_created_at_idx";

-- DropIndex
DROP INDEX "webhook_deliveries_event_id_idx";

-- DropIndex
DROP INDEX "webhook_secrets_endpoint_id_idx";

-- DropIndex
DROP INDEX "whatsapp_templates_channel_id_name_language_key";


-- Every table of a workspace's data carries "workspace_id" (D87): the tables that reached their
-- workspace through a parent get the column, filled from the parent. Rows whose parent is gone
-- (pacing reservations of a deleted channel, step records of a deleted flow) are dropped.
ALTER TABLE "channel_pacing" ADD COLUMN "workspace_id" TEXT;
UPDATE "channel_pacing" p SET "workspace_id" = c."workspace_id" FROM "channels" c WHERE c."id" = p."channel_id";
DELETE FROM "channel_pacing" WHERE "workspace_id" IS NULL;
ALTER TABLE "channel_pacing" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "contact_tags" ADD COLUMN "workspace_id" TEXT;
UPDATE "contact_tags" t SET "workspace_id" = c."workspace_id" FROM "contacts" c WHERE c."id" = t."contact_id";
DELETE FROM "contact_tags" WHERE "workspace_id" IS NULL;
ALTER TABLE "contact_tags" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "flow_run_history" ADD COLUMN "workspace_id" TEXT;
UPDATE "flow_run_history" h SET "workspace_id" = r."workspace_id" FROM "flow_runs" r WHERE r."id" = h."run_id";
DELETE FROM "flow_run_history" WHERE "workspace_id" IS NULL;
ALTER TABLE "flow_run_history" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "flow_step_messages" ADD COLUMN "workspace_id" TEXT;
UPDATE "flow_step_messages" m SET "workspace_id" = f."workspace_id" FROM "flows" f WHERE f."id" = m."flow_id";
DELETE FROM "flow_step_messages" WHERE "workspace_id" IS NULL;
ALTER TABLE "flow_step_messages" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "flow_step_stats" ADD COLUMN "workspace_id" TEXT;
UPDATE "flow_step_stats" s SET "workspace_id" = f."workspace_id" FROM "flows" f WHERE f."id" = s."flow_id";
DELETE FROM "flow_step_stats" WHERE "workspace_id" IS NULL;
ALTER TABLE "flow_step_stats" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "flow_versions" ADD COLUMN "workspace_id" TEXT;
UPDATE "flow_versions" v SET "workspace_id" = f."workspace_id" FROM "flows" f WHERE f."id" = v."flow_id";
DELETE FROM "flow_versions" WHERE "workspace_id" IS NULL;
ALTER TABLE "flow_versions" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "message_history" ADD COLUMN "workspace_id" TEXT;
UPDATE "message_history" h SET "workspace_id" = m."workspace_id" FROM "messages" m WHERE m."id" = h."message_id";
DELETE FROM "message_history" WHERE "workspace_id" IS NULL;
ALTER TABLE "message_history" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "webhook_attempts" ADD COLUMN "workspace_id" TEXT;
UPDATE "webhook_attempts" a SET "workspace_id" = d."workspace_id" FROM "webhook_deliveries" d WHERE d."id" = a."delivery_id";
DELETE FROM "webhook_attempts" WHERE "workspace_id" IS NULL;
ALTER TABLE "webhook_attempts" ALTER COLUMN "workspace_id" SET NOT NULL;

ALTER TABLE "webhook_secrets" ADD COLUMN "workspace_id" TEXT;
UPDATE "webhook_secrets" s SET "workspace_id" = e."workspace_id" FROM "webhook_endpoints" e WHERE e."id" = s."endpoint_id";
DELETE FROM "webhook_secrets" WHERE "workspace_id" IS NULL;
ALTER TABLE "webhook_secrets" ALTER COLUMN "workspace_id" SET NOT NULL;

-- AlterTable
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_pkey",
ADD CONSTRAINT "audit_events_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "channel_pacing" DROP CONSTRAINT "channel_pacing_pkey",
ADD CONSTRAINT "channel_pacing_pkey" PRIMARY KEY ("workspace_id", "channel_id", "second");

-- AlterTable
ALTER TABLE "channels" DROP CONSTRAINT "channels_pkey",
ADD CONSTRAINT "channels_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "contact_email_duplicates" DROP CONSTRAINT "contact_email_duplicates_pkey",
ADD CONSTRAINT "contact_email_duplicates_pkey" PRIMARY KEY ("workspace_id", "contact_id");

-- AlterTable
ALTER TABLE "contact_events" DROP CONSTRAINT "contact_events_pkey",
ADD CONSTRAINT "contact_events_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "contact_tags" DROP CONSTRAINT "contact_tags_pkey",
ADD CONSTRAINT "contact_tags_pkey" PRIMARY KEY ("workspace_id", "contact_id", "tag_id");

-- AlterTable
ALTER TABLE "contacts" DROP CONSTRAINT "contacts_pkey",
ADD CONSTRAINT "contacts_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "custom_fields" DROP CONSTRAINT "custom_fields_pkey",
ADD CONSTRAINT "custom_fields_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "events" DROP CONSTRAINT "events_pkey",
ADD CONSTRAINT "events_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "flow_run_history" DROP CONSTRAINT "flow_run_history_pkey",
ADD CONSTRAINT "flow_run_history_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "flow_runs" DROP CONSTRAINT "flow_runs_pkey",
ADD CONSTRAINT "flow_runs_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "flow_step_messages" DROP CONSTRAINT "flow_step_messages_pkey",
ADD CONSTRAINT "flow_step_messages_pkey" PRIMARY KEY ("workspace_id", "message_id");

-- AlterTable
ALTER TABLE "flow_step_stats" DROP CONSTRAINT "flow_step_stats_pkey",
ADD CONSTRAINT "flow_step_stats_pkey" PRIMARY KEY ("workspace_id", "flow_id", "mode", "version", "path", "metric", "shard");

-- AlterTable
ALTER TABLE "flow_versions" DROP CONSTRAINT "flow_versions_pkey",
ADD CONSTRAINT "flow_versions_pkey" PRIMARY KEY ("workspace_id", "flow_id", "version");

-- AlterTable
ALTER TABLE "flows" DROP CONSTRAINT "flows_pkey",
ADD CONSTRAINT "flows_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_pkey",
ADD CONSTRAINT "jobs_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "memberships" DROP CONSTRAINT "memberships_pkey",
ADD CONSTRAINT "memberships_pkey" PRIMARY KEY ("workspace_id", "user_id");

-- AlterTable
ALTER TABLE "message_history" DROP CONSTRAINT "message_history_pkey",
ADD CONSTRAINT "message_history_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "messages" DROP CONSTRAINT "messages_pkey",
ADD CONSTRAINT "messages_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "suppressions" DROP CONSTRAINT "suppressions_pkey",
ADD CONSTRAINT "suppressions_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "tags" DROP CONSTRAINT "tags_pkey",
ADD CONSTRAINT "tags_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_pkey",
ADD CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey",
ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "webhook_endpoints_pkey",
ADD CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "webhook_secrets" DROP CONSTRAINT "webhook_secrets_pkey",
ADD CONSTRAINT "webhook_secrets_pkey" PRIMARY KEY ("workspace_id", "id");

-- AlterTable
ALTER TABLE "whatsapp_templates" DROP CONSTRAINT "whatsapp_templates_pkey",
ADD CONSTRAINT "whatsapp_templates_pkey" PRIMARY KEY ("workspace_id", "id");

-- CreateIndex
CREATE INDEX "contact_events_workspace_id_contact_id_mode_name_created_at_idx" ON "contact_events"("workspace_id", "contact_id", "mode", "name", "created_at");

-- CreateIndex
CREATE INDEX "contact_tags_workspace_id_tag_id_idx" ON "contact_tags"("workspace_id", "tag_id");

-- CreateIndex
CREATE INDEX "events_workspace_id_contact_id_created_at_id_idx" ON "events"("workspace_id", "contact_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "flow_run_history_workspace_id_run_id_at_idx" ON "flow_run_history"("workspace_id", "run_id", "at");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_contact_id_wait_event_idx" ON "flow_runs"("workspace_id", "contact_id", "wait_event");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_wait_message_id_idx" ON "flow_runs"("workspace_id", "wait_message_id");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_flow_id_status_created_at_id_idx" ON "flow_runs"("workspace_id", "flow_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_flow_id_created_at_id_idx" ON "flow_runs"("workspace_id", "flow_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_contact_id_status_idx" ON "flow_runs"("workspace_id", "contact_id", "status");

-- CreateIndex
CREATE INDEX "jobs_workspace_id_subject_id_idx" ON "jobs"("workspace_id", "subject_id");

-- CreateIndex
CREATE INDEX "memberships_user_id_idx" ON "memberships"("user_id");

-- CreateIndex
CREATE INDEX "message_history_workspace_id_message_id_at_idx" ON "message_history"("workspace_id", "message_id", "at");

-- CreateIndex
CREATE INDEX "webhook_attempts_workspace_id_delivery_id_at_idx" ON "webhook_attempts"("workspace_id", "delivery_id", "at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_workspace_id_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("workspace_id", "endpoint_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_workspace_id_endpoint_id_status_created__idx" ON "webhook_deliveries"("workspace_id", "endpoint_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_workspace_id_event_id_idx" ON "webhook_deliveries"("workspace_id", "event_id");

-- CreateIndex
CREATE INDEX "webhook_secrets_workspace_id_endpoint_id_idx" ON "webhook_secrets"("workspace_id", "endpoint_id");

-- CreateIndex
CREATE UNIQUE INDEX "whatsapp_templates_workspace_id_channel_id_name_language_key" ON "whatsapp_templates"("workspace_id", "channel_id", "name", "language");

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "custom_fields" ADD CONSTRAINT "custom_fields_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_workspace_id_contact_id_fkey" FOREIGN KEY ("workspace_id", "contact_id") REFERENCES "contacts"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "contact_tags" ADD CONSTRAINT "contact_tags_workspace_id_tag_id_fkey" FOREIGN KEY ("workspace_id", "tag_id") REFERENCES "tags"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_workspace_id_channel_id_fkey" FOREIGN KEY ("workspace_id", "channel_id") REFERENCES "channels"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "message_history" ADD CONSTRAINT "message_history_workspace_id_message_id_fkey" FOREIGN KEY ("workspace_id", "message_id") REFERENCES "messages"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "webhook_secrets" ADD CONSTRAINT "webhook_secrets_workspace_id_endpoint_id_fkey" FOREIGN KEY ("workspace_id", "endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_endpoint_id_fkey" FOREIGN KEY ("workspace_id", "endpoint_id") REFERENCES "webhook_endpoints"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_workspace_id_delivery_id_fkey" FOREIGN KEY ("workspace_id", "delivery_id") REFERENCES "webhook_deliveries"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "flows" ADD CONSTRAINT "flows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "flow_versions" ADD CONSTRAINT "flow_versions_workspace_id_flow_id_fkey" FOREIGN KEY ("workspace_id", "flow_id") REFERENCES "flows"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_workspace_id_flow_id_fkey" FOREIGN KEY ("workspace_id", "flow_id") REFERENCES "flows"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "contact_events" ADD CONSTRAINT "contact_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "contact_events" ADD CONSTRAINT "contact_events_workspace_id_contact_id_fkey" FOREIGN KEY ("workspace_id", "contact_id") REFERENCES "contacts"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "flow_run_history" ADD CONSTRAINT "flow_run_history_workspace_id_run_id_fkey" FOREIGN KEY ("workspace_id", "run_id") REFERENCES "flow_runs"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "flow_step_stats" ADD CONSTRAINT "flow_step_stats_workspace_id_flow_id_fkey" FOREIGN KEY ("workspace_id", "flow_id") REFERENCES "flows"("workspace_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- The flow statistics' writers (20261127140139_flow_step_stats) name the workspace of every
-- row they write and join on keys that start with it.
CREATE OR REPLACE FUNCTION flow_stats_add(d jsonb) RETURNS void LANGUAGE sql VOLATILE AS $$
  INSERT INTO flow_step_stats AS s (workspace_id, flow_id, mode, version, path, metric, shard, n)
  SELECT f.workspace_id, x.flow_id, x.mode::"KeyMode", x.version, x.path, x.metric, pg_backend_pid() % 8, sum(x.n)
  FROM jsonb_to_recordset(d) AS x(workspace_id text, flow_id text, mode text, version integer, path text, metric text, n bigint)
  JOIN flows f ON f.workspace_id = x.workspace_id AND f.id = x.flow_id
  GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(x.n) <> 0
  ORDER BY 1, 2, 3, 4, 5, 6
  ON CONFLICT (workspace_id, flow_id, mode, version, path, metric, shard) DO UPDATE SET n = s.n + EXCLUDED.n
$$;

CREATE OR REPLACE FUNCTION flow_runs_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (SELECT r.workspace_id, s.*, 1 AS n FROM new_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (SELECT r.workspace_id, s.*, -1 AS n FROM old_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s) x;
  ELSE
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
      SELECT r.workspace_id, s.*, 1 AS n FROM new_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s
      UNION ALL SELECT r.workspace_id, s.*, -1 FROM old_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s
    ) x;
  END IF;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION flow_history_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  -- The version an entry belongs to is its run's as the statement left it (a move writes no counted entry).
  SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
    SELECT r.workspace_id, s.*, 1 AS n FROM new_history h JOIN flow_runs r ON r.workspace_id = h.workspace_id AND r.id = h.run_id,
      flow_history_stat_rows(h.kind, h.position, h.detail, r.flow_id, r.mode::text, r.version) s
    UNION ALL
    SELECT r.workspace_id, r.flow_id, r.mode::text, r.version, flow_step_path(h.position), 'message:' || m.status::text, 1
    FROM new_history h JOIN flow_runs r ON r.workspace_id = h.workspace_id AND r.id = h.run_id
    JOIN messages m ON m.workspace_id = h.workspace_id AND m.id = h.detail->>'message_id'
    WHERE h.kind = 'step' AND h.detail->>'type' = 'send'
  ) x;
  INSERT INTO flow_step_messages (workspace_id, message_id, flow_id, mode, version, path)
  SELECT r.workspace_id, h.detail->>'message_id', r.flow_id, r.mode, r.version, flow_step_path(h.position)
  FROM new_history h JOIN flow_runs r ON r.workspace_id = h.workspace_id AND r.id = h.run_id
  WHERE h.kind = 'step' AND h.detail->>'type' = 'send' AND h.detail->>'message_id' IS NOT NULL
  ON CONFLICT (workspace_id, message_id) DO NOTHING;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION flow_messages_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
    SELECT f.workspace_id, f.flow_id, f.mode::text, f.version, f.path, 'message:' || n.status::text AS metric, 1 AS n
    FROM new_messages n JOIN old_messages o ON o.id = n.id
    JOIN flow_step_messages f ON f.workspace_id = n.workspace_id AND f.message_id = n.id
    WHERE n.run_id IS NOT NULL AND n.status <> o.status
    UNION ALL
    SELECT f.workspace_id, f.flow_id, f.mode::text, f.version, f.path, 'message:' || o.status::text, -1
    FROM new_messages n JOIN old_messages o ON o.id = n.id
    JOIN flow_step_messages f ON f.workspace_id = n.workspace_id AND f.message_id = n.id
    WHERE n.run_id IS NOT NULL AND n.status <> o.status
  ) x;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

-- CreateIndex
CREATE INDEX "messages_id_idx" ON "messages"("id");
