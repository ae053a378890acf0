-- CreateEnum
CREATE TYPE "ChannelType" AS ENUM ('whatsapp', 'email');

-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('queued', 'sent', 'delivered', 'read', 'failed');

-- CreateTable
CREATE TABLE "channels" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "type" "ChannelType" NOT NULL,
    "name" TEXT NOT NULL,
    "external_id" TEXT NOT NULL,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "secrets" TEXT NOT NULL,
    "rate_per_second" INTEGER NOT NULL DEFAULT 80,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "disconnected_at" TIMESTAMPTZ(3),

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "channel" "ChannelType" NOT NULL,
    "channel_id" TEXT,
    "contact_id" TEXT NOT NULL,
    "to" TEXT,
    "status" "MessageStatus" NOT NULL DEFAULT 'queued',
    "content" JSONB NOT NULL,
    "provider_message_id" TEXT,
    "error" TEXT,
    "source" TEXT NOT NULL DEFAULT 'api',
    "sent_at" TIMESTAMPTZ(3),
    "delivered_at" TIMESTAMPTZ(3),
    "read_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_history" (
    "id" BIGSERIAL NOT NULL,
    "message_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "status" "MessageStatus",
    "detail" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "message_history_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "channel_id" TEXT,
    "payload" JSONB NOT NULL DEFAULT '{}',
    "run_at" TIMESTAMPTZ(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "lease_owner" TEXT,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_counters" (
    "workspace_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "channel" "ChannelType" NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "usage_counters_pkey" PRIMARY KEY ("workspace_id","day","channel","mode")
);

-- CreateTable
CREATE TABLE "channel_pacing" (
    "channel_id" TEXT NOT NULL,
    "second" BIGINT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "channel_pacing_pkey" PRIMARY KEY ("channel_id","second")
);

-- CreateIndex
CREATE INDEX "channels_workspace_id_type_idx" ON "channels"("workspace_id", "type");

-- CreateIndex
CREATE INDEX "channels_type_external_id_idx" ON "channels"("type", "external_id");

-- CreateIndex
CREATE INDEX "messages_workspace_id_created_at_id_idx" ON "messages"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "messages_workspace_id_contact_id_idx" ON "messages"("workspace_id", "contact_id");

-- CreateIndex
CREATE INDEX "messages_provider_message_id_idx" ON "messages"("provider_message_id");

-- CreateIndex
CREATE INDEX "message_history_message_id_at_idx" ON "message_history"("message_id", "at");

-- CreateIndex
CREATE INDEX "jobs_run_at_idx" ON "jobs"("run_at");

-- CreateIndex
CREATE INDEX "jobs_subject_id_idx" ON "jobs"("subject_id");

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_history" ADD CONSTRAINT "message_history_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
