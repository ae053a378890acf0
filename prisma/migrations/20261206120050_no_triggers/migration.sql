-- D87: no trigger sits on a table of workspace data. What the triggers did is now code in the
-- writer that owns each table, in the same transaction as the change that causes it:
-- - the wake-up NOTIFY on `svc_jobs` (`jobs_notify`): sent by the code that inserts due jobs,
--   on its own connection inside the writing transaction (server/outbox/wake.ts, `notifyJobs`);
-- - a flow's statistics (`flow_runs_stats`, `flow_history_stats`, `flow_messages_stats` and the
--   functions they called): written by the writers of runs, history and messages' statuses
--   through server/flows/stat-counters.ts;
-- - a workspace's templates_version (`bump_templates_version`): moved on by the writers of
--   templates and channels (server/whatsapp/templates-version.ts).
DROP TRIGGER jobs_notify ON jobs;
DROP FUNCTION jobs_notify();

DROP TRIGGER flow_runs_stats_insert ON flow_runs;
DROP TRIGGER flow_runs_stats_update ON flow_runs;
DROP TRIGGER flow_runs_stats_delete ON flow_runs;
DROP TRIGGER flow_history_stats ON flow_run_history;
DROP TRIGGER flow_messages_stats ON messages;
DROP FUNCTION flow_runs_stats();
DROP FUNCTION flow_history_stats();
DROP FUNCTION flow_messages_stats();
DROP FUNCTION flow_stats_add(jsonb);
DROP FUNCTION flow_run_stat_rows(text, text, integer, text, boolean, jsonb);
DROP FUNCTION flow_history_stat_rows(text, jsonb, jsonb, text, text, integer);
DROP FUNCTION flow_step_path(jsonb);

DROP TRIGGER whatsapp_templates_version ON whatsapp_templates;
DROP TRIGGER channels_templates_version ON channels;
DROP FUNCTION bump_templates_version();

-- The claim reads the workspaces with due work, then claims within each by due time.
DROP INDEX "jobs_run_at_idx";
CREATE INDEX "jobs_workspace_id_run_at_idx" ON "jobs"("workspace_id", "run_at");
