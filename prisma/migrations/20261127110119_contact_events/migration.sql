-- Contact events (D61) and what flows do with them: triggers (D62), wait_for (D63), goals (D64),
-- run keys (D66). A waiting run is found by what it waits for (wait_event, wait_message_id).
-- AlterTable
ALTER TABLE "flow_runs" ADD COLUMN     "converted_at" TIMESTAMPTZ(3),
ADD COLUMN     "converted_event_id" TEXT,
ADD COLUMN     "key" TEXT,
ADD COLUMN     "last_message_id" TEXT,
ADD COLUMN     "wait" JSONB,
ADD COLUMN     "wait_event" TEXT,
ADD COLUMN     "wait_message_id" TEXT;

-- AlterTable
ALTER TABLE "flow_versions" ADD COLUMN     "goal" JSONB,
ADD COLUMN     "trigger" JSONB;

-- AlterTable
ALTER TABLE "flows" ADD COLUMN     "trigger_event" TEXT;

-- CreateTable
CREATE TABLE "contact_events" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "contact_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "name" TEXT NOT NULL,
    "properties" JSONB NOT NULL DEFAULT '{}',
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "client_id" TEXT,
    "triggered" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_event_ids" (
    "workspace_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "client_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_event_ids_pkey" PRIMARY KEY ("workspace_id","mode","client_id")
);

-- CreateIndex
CREATE INDEX "contact_events_workspace_id_mode_created_at_id_idx" ON "contact_events"("workspace_id", "mode", "created_at", "id");

-- CreateIndex
CREATE INDEX "contact_events_contact_id_mode_name_created_at_idx" ON "contact_events"("contact_id", "mode", "name", "created_at");

-- CreateIndex
CREATE INDEX "contact_event_ids_created_at_idx" ON "contact_event_ids"("created_at");

-- CreateIndex
CREATE INDEX "flow_runs_contact_id_wait_event_idx" ON "flow_runs"("contact_id", "wait_event");

-- CreateIndex
CREATE INDEX "flow_runs_wait_message_id_idx" ON "flow_runs"("wait_message_id");

-- CreateIndex
CREATE INDEX "flow_runs_workspace_id_key_idx" ON "flow_runs"("workspace_id", "key");

-- CreateIndex
CREATE INDEX "flows_workspace_id_trigger_event_idx" ON "flows"("workspace_id", "trigger_event");

-- AddForeignKey
ALTER TABLE "contact_events" ADD CONSTRAINT "contact_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contact_events" ADD CONSTRAINT "contact_events_contact_id_fkey" FOREIGN KEY ("contact_id") REFERENCES "contacts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
