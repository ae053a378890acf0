-- AlterEnum
ALTER TYPE "MessageStatus" ADD VALUE 'received';

-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "templates_synced_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "whatsapp_window_expires_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "direction" TEXT NOT NULL DEFAULT 'outbound',
ADD COLUMN     "error_code" TEXT;

-- CreateTable
CREATE TABLE "whatsapp_templates" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "external_id" TEXT,
    "name" TEXT NOT NULL,
    "language" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "parameters" JSONB NOT NULL DEFAULT '[]',
    "body" TEXT NOT NULL DEFAULT '',
    "components" JSONB NOT NULL DEFAULT '[]',
    "parameter_format" TEXT NOT NULL DEFAULT 'positional',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "whatsapp_templates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "whatsapp_templates_workspace_id_created_at_id_idx" ON "whatsapp_templates"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "whatsapp_templates_channel_id_name_language_key" ON "whatsapp_templates"("channel_id", "name", "language");

-- AddForeignKey
ALTER TABLE "whatsapp_templates" ADD CONSTRAINT "whatsapp_templates_channel_id_fkey" FOREIGN KEY ("channel_id") REFERENCES "channels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
