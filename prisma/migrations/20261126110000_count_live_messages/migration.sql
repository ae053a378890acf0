-- Counts up to p_n live messages of one channel against a workspace's limits (D25), as if each
-- were counted alone and in order: how many fit (`accepted`) are added to the day's counter.
-- The workspace's row is locked first, so concurrent counts of the workspace, on any instance,
-- go one at a time. Each statement of a function takes a snapshot of its own: the counters are
-- read after the lock is held and see every count committed before it. The parts of a single
-- statement could not: they share the snapshot taken before it waited for the lock. So a send
-- is counted and written in one statement that calls this function
-- (server/messaging/insert-messages.ts), with no transaction round trips around it.
--
-- The caller passes the limits it computed (`p_daily`, `p_monthly`, null for none) and the
-- workspace's limit columns it computed them from (`p_seen`). When those columns changed
-- meanwhile, nothing is counted, and `seen` returns them for the caller to compute the limits
-- again (`today`, `month` and `accepted` are then null).
CREATE FUNCTION count_live_messages(
  p_workspace text, p_channel "ChannelType", p_day text, p_n integer, p_seen jsonb, p_daily integer, p_monthly integer
) RETURNS TABLE (seen jsonb, today integer, month integer, accepted integer) LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  SELECT jsonb_build_object(
           'plan', w.plan::text, 'daily_limit', w.daily_limit, 'monthly_limit', w.monthly_limit,
           'monthly_limit_set', w.monthly_limit_set)
    INTO seen FROM workspaces w WHERE w.id = p_workspace FOR NO KEY UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'workspace % does not exist', p_workspace;
  END IF;
  IF p_seen IS DISTINCT FROM seen THEN
    RETURN NEXT;
    RETURN;
  END IF;
  SELECT coalesce(sum(u.count) FILTER (WHERE u.day = p_day AND u.channel = p_channel), 0)::int, coalesce(sum(u.count), 0)::int
    INTO today, month
    FROM usage_counters u WHERE u.workspace_id = p_workspace AND u.mode = 'live' AND u.day LIKE left(p_day, 7) || '-%';
  accepted := greatest(0, least(p_n, p_daily - today, coalesce(p_monthly - month, p_n)));
  IF accepted > 0 THEN
    INSERT INTO usage_counters AS u (workspace_id, day, channel, mode, count)
    VALUES (p_workspace, p_day, p_channel, 'live', accepted)
    ON CONFLICT (workspace_id, day, channel, mode) DO UPDATE SET count = u.count + EXCLUDED.count;
  END IF;
  RETURN NEXT;
END $$;
