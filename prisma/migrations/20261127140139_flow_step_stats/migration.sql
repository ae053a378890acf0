-- AlterTable
ALTER TABLE "flow_runs" ADD COLUMN     "waiting_at" JSONB;

-- CreateTable
CREATE TABLE "flow_step_stats" (
    "flow_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "version" INTEGER NOT NULL,
    "path" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "n" BIGINT NOT NULL,

    CONSTRAINT "flow_step_stats_pkey" PRIMARY KEY ("flow_id","mode","version","path","metric","shard")
);

-- CreateTable
CREATE TABLE "flow_step_messages" (
    "message_id" TEXT NOT NULL,
    "flow_id" TEXT NOT NULL,
    "mode" "KeyMode" NOT NULL,
    "version" INTEGER NOT NULL,
    "path" TEXT NOT NULL,

    CONSTRAINT "flow_step_messages_pkey" PRIMARY KEY ("message_id")
);

-- AddForeignKey
ALTER TABLE "flow_step_stats" ADD CONSTRAINT "flow_step_stats_flow_id_fkey" FOREIGN KEY ("flow_id") REFERENCES "flows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- D69: a flow's statistics are counters kept by the statements that change what they count,
-- so reading them reads a few rows per step whatever the number of runs. Each trigger below
-- is a statement trigger: it adds up what its statement did (rows of its transition tables,
-- each row's contribution taken away as it was and added as it is) and writes the sums once,
-- in key order, into the connection's shard. A run's contributions (`flow_run_stat_rows`):
-- its status (`runs:<status>`, flow-wide), its conversion, and its place (the step it waits
-- in, else its position) as `waiting` while active or as `stopped` / `failed` once it left.
-- A history entry's (`flow_history_stat_rows`): `reached` for a step run, skipped or waited
-- in (or a wait_for that ended at once), `skipped:<reason>`, `path:<index>` for a branch
-- (then 0, else 1), a wait_for (on_event 0, on_timeout 1) or a numbered path. A message sent
-- by a step counts as `message:<status>` at that step, moved from status to status.

CREATE FUNCTION flow_step_path(p jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT 'steps.' || string_agg(e, '.' ORDER BY i) FROM jsonb_array_elements_text(p) WITH ORDINALITY AS x(e, i)
$$;

CREATE FUNCTION flow_run_stat_rows(p_flow text, p_mode text, p_version integer, p_status text, p_converted boolean, p_place jsonb)
RETURNS TABLE (flow_id text, mode text, version integer, path text, metric text) LANGUAGE sql IMMUTABLE AS $$
  SELECT p_flow, p_mode, 0, '', 'runs:' || p_status
  UNION ALL SELECT p_flow, p_mode, 0, '', 'conversions' WHERE p_converted
  UNION ALL
  SELECT p_flow, p_mode, p_version, flow_step_path(p_place), CASE WHEN p_status = 'active' THEN 'waiting' ELSE p_status END
  WHERE p_status IN ('active', 'stopped', 'failed') AND jsonb_typeof(p_place) = 'array'
$$;

CREATE FUNCTION flow_history_stat_rows(p_kind text, p_position jsonb, p_detail jsonb, p_flow text, p_mode text, p_version integer)
RETURNS TABLE (flow_id text, mode text, version integer, path text, metric text) LANGUAGE sql IMMUTABLE AS $$
  SELECT p_flow, p_mode, p_version, flow_step_path(p_position), m
  FROM (
    SELECT 'reached' AS m WHERE p_kind IN ('step', 'skipped', 'waiting') OR (p_kind = 'woke' AND p_detail->>'at_once' = 'true')
      OR (p_kind = 'path' AND p_detail->>'type' = 'split')
    UNION ALL SELECT 'skipped:' || coalesce(p_detail->>'skip', 'other') WHERE p_kind = 'skipped'
    UNION ALL SELECT 'path:' || CASE p_detail->>'took' WHEN 'then' THEN '0' ELSE '1' END
      WHERE p_kind = 'step' AND p_detail->>'type' = 'branch'
    UNION ALL SELECT 'path:' || CASE p_detail->>'path' WHEN 'on_event' THEN '0' WHEN 'on_timeout' THEN '1' ELSE p_detail->>'path' END
      WHERE p_kind = 'path'
  ) x
  WHERE jsonb_typeof(p_position) = 'array'
$$;

-- Adds the deltas of `d` (flow_id, mode, version, path, metric, n) to the counters, for flows that still exist.
CREATE FUNCTION flow_stats_add(d jsonb) RETURNS void LANGUAGE sql VOLATILE AS $$
  INSERT INTO flow_step_stats AS s (flow_id, mode, version, path, metric, shard, n)
  SELECT x.flow_id, x.mode::"KeyMode", x.version, x.path, x.metric, pg_backend_pid() % 8, sum(x.n)
  FROM jsonb_to_recordset(d) AS x(flow_id text, mode text, version integer, path text, metric text, n bigint)
  WHERE EXISTS (SELECT 1 FROM flows f WHERE f.id = x.flow_id)
  GROUP BY 1, 2, 3, 4, 5 HAVING sum(x.n) <> 0
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT (flow_id, mode, version, path, metric, shard) DO UPDATE SET n = s.n + EXCLUDED.n
$$;

CREATE FUNCTION flow_runs_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (SELECT s.*, 1 AS n FROM new_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s) x;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (SELECT s.*, -1 AS n FROM old_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s) x;
  ELSE
    SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
      SELECT s.*, 1 AS n FROM new_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s
      UNION ALL SELECT s.*, -1 FROM old_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s
    ) x;
  END IF;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER flow_runs_stats_insert AFTER INSERT ON flow_runs REFERENCING NEW TABLE AS new_runs
  FOR EACH STATEMENT EXECUTE FUNCTION flow_runs_stats();
CREATE TRIGGER flow_runs_stats_update AFTER UPDATE ON flow_runs REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs
  FOR EACH STATEMENT EXECUTE FUNCTION flow_runs_stats();
CREATE TRIGGER flow_runs_stats_delete AFTER DELETE ON flow_runs REFERENCING OLD TABLE AS old_runs
  FOR EACH STATEMENT EXECUTE FUNCTION flow_runs_stats();

CREATE FUNCTION flow_history_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  -- The version an entry belongs to is its run's as the statement left it (a move writes no counted entry).
  SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
    SELECT s.*, 1 AS n FROM new_history h JOIN flow_runs r ON r.id = h.run_id, flow_history_stat_rows(h.kind, h.position, h.detail, r.flow_id, r.mode::text, r.version) s
    UNION ALL
    SELECT r.flow_id, r.mode::text, r.version, flow_step_path(h.position), 'message:' || m.status::text, 1
    FROM new_history h JOIN flow_runs r ON r.id = h.run_id JOIN messages m ON m.id = h.detail->>'message_id'
    WHERE h.kind = 'step' AND h.detail->>'type' = 'send'
  ) x;
  INSERT INTO flow_step_messages (message_id, flow_id, mode, version, path)
  SELECT h.detail->>'message_id', r.flow_id, r.mode, r.version, flow_step_path(h.position)
  FROM new_history h JOIN flow_runs r ON r.id = h.run_id
  WHERE h.kind = 'step' AND h.detail->>'type' = 'send' AND h.detail->>'message_id' IS NOT NULL
  ON CONFLICT (message_id) DO NOTHING;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER flow_history_stats AFTER INSERT ON flow_run_history REFERENCING NEW TABLE AS new_history
  FOR EACH STATEMENT EXECUTE FUNCTION flow_history_stats();

CREATE FUNCTION flow_messages_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE d jsonb;
BEGIN
  SELECT jsonb_agg(to_jsonb(x)) INTO d FROM (
    SELECT f.flow_id, f.mode::text, f.version, f.path, 'message:' || n.status::text AS metric, 1 AS n
    FROM new_messages n JOIN old_messages o ON o.id = n.id JOIN flow_step_messages f ON f.message_id = n.id
    WHERE n.run_id IS NOT NULL AND n.status <> o.status
    UNION ALL
    SELECT f.flow_id, f.mode::text, f.version, f.path, 'message:' || o.status::text, -1
    FROM new_messages n JOIN old_messages o ON o.id = n.id JOIN flow_step_messages f ON f.message_id = n.id
    WHERE n.run_id IS NOT NULL AND n.status <> o.status
  ) x;
  IF d IS NOT NULL THEN PERFORM flow_stats_add(d); END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER flow_messages_stats AFTER UPDATE ON messages REFERENCING OLD TABLE AS old_messages NEW TABLE AS new_messages
  FOR EACH STATEMENT EXECUTE FUNCTION flow_messages_stats();

-- What existed before the counters: counted once, as the triggers would have.
INSERT INTO flow_step_messages (message_id, flow_id, mode, version, path)
SELECT h.detail->>'message_id', r.flow_id, r.mode, r.version, flow_step_path(h.position)
FROM flow_run_history h JOIN flow_runs r ON r.id = h.run_id
WHERE h.kind = 'step' AND h.detail->>'type' = 'send' AND h.detail->>'message_id' IS NOT NULL
ON CONFLICT (message_id) DO NOTHING;

INSERT INTO flow_step_stats (flow_id, mode, version, path, metric, shard, n)
SELECT flow_id, mode::"KeyMode", version, path, metric, 0, count(*) FROM (
  SELECT s.* FROM flow_runs r, flow_run_stat_rows(r.flow_id, r.mode::text, r.version, r.status::text, r.converted_at IS NOT NULL, coalesce(r.waiting_at, r.position)) s
  UNION ALL SELECT s.* FROM flow_run_history h JOIN flow_runs r ON r.id = h.run_id, flow_history_stat_rows(h.kind, h.position, h.detail, r.flow_id, r.mode::text, r.version) s
  UNION ALL SELECT f.flow_id, f.mode::text, f.version, f.path, 'message:' || m.status::text FROM flow_step_messages f JOIN messages m ON m.id = f.message_id
) x GROUP BY 1, 2, 3, 4, 5;
