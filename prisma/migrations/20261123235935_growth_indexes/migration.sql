-- DropIndex
DROP INDEX "events_contact_id_created_at_idx";

-- DropIndex
DROP INDEX "flow_runs_flow_id_status_created_at_idx";

-- DropIndex
DROP INDEX "messages_workspace_id_created_at_id_idx";

-- CreateIndex
CREATE INDEX "events_contact_id_created_at_id_idx" ON "events"("contact_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "events_created_at_idx" ON "events" USING BRIN ("created_at");

-- CreateIndex
CREATE INDEX "flow_runs_flow_id_status_created_at_id_idx" ON "flow_runs"("flow_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "flow_runs_flow_id_created_at_id_idx" ON "flow_runs"("flow_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "message_history_at_idx" ON "message_history" USING BRIN ("at");

-- CreateIndex
CREATE INDEX "messages_workspace_id_created_at_id_channel_mode_idx" ON "messages"("workspace_id", "created_at", "id", "channel", "mode");

-- CreateIndex (by hand: Prisma cannot declare an index on an expression; its diff ignores this one)
-- The inspector's search by phone or e-mail: the whole address, any case, newest first.
CREATE INDEX "messages_workspace_id_lower_to_created_at_id_idx" ON "messages"("workspace_id", lower("to"), "created_at", "id");
