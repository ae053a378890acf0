-- CreateEnum
CREATE TYPE "SuppressionReason" AS ENUM ('hard_bounce', 'complaint', 'manual');

-- CreateTable
CREATE TABLE "suppressions" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "reason" "SuppressionReason" NOT NULL,
    "message_id" TEXT,
    "detail" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "suppressions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "suppressions_workspace_id_mode_created_at_id_idx" ON "suppressions"("workspace_id", "mode", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "suppressions_workspace_id_mode_email_key_key" ON "suppressions"("workspace_id", "mode", "email_key");

-- AddForeignKey
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
