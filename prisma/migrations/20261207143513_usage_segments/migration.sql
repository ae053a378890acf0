-- D97: the segments of a day's live sms are counted with the day's messages, at acceptance, and
-- given back with them on cancel, so GET /usage reads a few counter rows instead of summing the
-- month's messages. Existing counters take the segments of the live sms they already count.

-- count_live_messages (20261126110000_count_live_messages) as it was, but for its last argument:
-- the segments of each message offered, in order (null or absent for a channel without), of
-- which those that fit are added to the day's counter with them. Replaced first: Citus runs no
-- function command in a transaction after a parallel operation on a distributed table.
DROP FUNCTION count_live_messages(text, "ChannelType", text, integer, jsonb, integer, integer);

CREATE FUNCTION count_live_messages(
  p_workspace text, p_channel "ChannelType", p_day text, p_n integer, p_seen jsonb, p_daily integer, p_monthly integer,
  p_segments integer[]
) RETURNS TABLE (seen jsonb, today integer, month integer, accepted integer) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  added integer;
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
    -- Summed apart: Citus takes no subquery inside INSERT ... VALUES.
    added := coalesce((SELECT sum(s)::int FROM unnest(p_segments[1:accepted]) AS s), 0);
    INSERT INTO usage_counters AS u (workspace_id, day, channel, mode, count, segments)
    VALUES (p_workspace, p_day, p_channel, 'live', accepted, added)
    ON CONFLICT (workspace_id, day, channel, mode)
      DO UPDATE SET count = u.count + EXCLUDED.count, segments = u.segments + EXCLUDED.segments;
  END IF;
  RETURN NEXT;
END $$;

ALTER TABLE "usage_counters" ADD COLUMN "segments" INTEGER NOT NULL DEFAULT 0;

UPDATE usage_counters u SET segments = s.segments
FROM (
  SELECT workspace_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
    sum((sms->>'segments')::int)::int AS segments
  FROM messages
  WHERE channel = 'sms' AND mode = 'live' AND direction = 'outbound' AND status <> 'canceled' AND sms IS NOT NULL
  GROUP BY workspace_id, 2
) s
WHERE u.workspace_id = s.workspace_id AND u.day = s.day AND u.channel = 'sms' AND u.mode = 'live';
