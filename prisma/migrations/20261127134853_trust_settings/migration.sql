-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "time_zone" TEXT;

-- AlterTable
ALTER TABLE "flow_versions" ADD COLUMN     "caps" JSONB,
ADD COLUMN     "quiet_hours" JSONB;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "caps" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';
