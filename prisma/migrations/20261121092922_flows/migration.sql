-- CreateEnum
CREATE TYPE "FlowStatus" AS ENUM ('draft', 'active', 'paused', 'archived');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('active', 'completed', 'stopped', 'failed');

-- CreateTable
CREATE TABLE "flows" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "FlowStatus" NOT NULL DEFAULT 'draft',
    "allow_reentry" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flows_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_versions" (
    "flow_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "steps" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "flow_versions_pkey" PRIMARY KEY ("flow_id","version")
);

-- CreateTable
CREATE TABLE "flow_runs" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "contact_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'active',
    "position" JSONB NOT NULL DEFAULT '[0]',
    "variables" JSONB NOT NULL DEFAULT '{}',
    "reason" TEXT,
    "next_step_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "flow_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "flow_run_history" (
    "id" BIGSERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "kind" TEXT NOT NULL,
    "position" JSONB,
    "detail" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "flow_run_history_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "flows_workspace_id_status_created_at_id_idx" ON "flows"("workspace_id", "status", "created_at", "id");

-- CreateIndex
CREATE INDEX "flows_workspace_id_created_at_id_idx" ON "flows"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "flow_runs_flow_id_status_created_at_idx" ON "flow_runs"("flow_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "flow_runs_contact_id_status_idx" ON "flow_runs"("contact_id", "status");

-- CreateIndex
CREATE INDEX "flow_run_history_run_id_at_idx" ON "flow_run_history"("run_id", "at");

-- AddForeignKey
ALTER TABLE "flows" ADD CONSTRAINT "flows_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_versions" ADD CONSTRAINT "flow_versions_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "flow_run_history" ADD CONSTRAINT "flow_run_history_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "flow_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
