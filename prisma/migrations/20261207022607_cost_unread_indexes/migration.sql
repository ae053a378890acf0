-- DropIndex
DROP INDEX "events_workspace_id_created_at_id_idx";
