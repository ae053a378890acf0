-- D69, D70: a run moved onto a new version by an edit counts as having reached the step it
-- waits in there. A move writes one `moved` history entry per run; when the run waits in a
-- `wait` or `wait_for` of the new version (the wait carried over: it will not be counted again
-- when it ends), the entry's detail names that step (`reached`, a position) and the entry
-- counts `reached` there, under the run's new version. A run moved to a step it has yet to
-- run is counted when it runs it, as any run is.

CREATE OR REPLACE FUNCTION flow_history_stat_rows(p_kind text, p_position jsonb, p_detail jsonb, p_flow text, p_mode text, p_version integer)
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
  UNION ALL
  SELECT p_flow, p_mode, p_version, flow_step_path(p_detail->'reached'), 'reached'
  WHERE p_kind = 'moved' AND jsonb_typeof(p_detail->'reached') = 'array'
$$;
