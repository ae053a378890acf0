-- D88: a contact's WhatsApp business-scoped user id and username. The user id is unique in
-- its workspace like the phone; the key starts with "workspace_id", so on Citus it stays
-- within the workspace's shard (20261206120100_citus_layout).
ALTER TABLE "contacts" ADD COLUMN "whatsapp_user_id" TEXT,
ADD COLUMN "whatsapp_username" TEXT;

CREATE UNIQUE INDEX "contacts_workspace_id_whatsapp_user_id_key" ON "contacts"("workspace_id", "whatsapp_user_id");
