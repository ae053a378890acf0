-- DropIndex
DROP INDEX "messages_workspace_id_contact_id_idx";

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "api_key_id" TEXT,
ADD COLUMN     "run_id" TEXT;

-- CreateIndex
CREATE INDEX "messages_workspace_id_contact_id_created_at_id_idx" ON "messages"("workspace_id", "contact_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex (by hand: Prisma cannot declare an index on an expression; its diff ignores this one)
-- A message's events (and through them its webhook deliveries) on the message's page.
CREATE INDEX "events_workspace_id_message_id_idx" ON "events"("workspace_id", (("data" ->> 'id'))) WHERE "name" LIKE 'mensagem.%';
