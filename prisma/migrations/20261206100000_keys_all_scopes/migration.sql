-- "All scopes" is stored as such from now on: the marker '*' instead of the scopes of the day,
-- so such a key also holds every scope a later release adds (docs/api-platform.md, "Scopes").
--
-- Keys made before: a key is converted when its scopes are exactly the full set of the release
-- it was made with (what "all scopes", the default, gave it then); any other key keeps exactly
-- its scopes. The release a key was made with is read from when this database applied the
-- migration that came with each scope addition:
--   before 20261127110119_contact_events: the first 10 scopes;
--   from then, before 20261127134810_suppressions: those and events:write, events:read;
--   from then on: those and webhooks:write, webhooks:read (all 14).
-- A key made with every scope of its release chosen one by one is indistinguishable from one
-- made with the default, and converted too: it held every scope there was.
DO $$
DECLARE
  events_at timestamptz;
  webhooks_at timestamptz;
  first text[] := ARRAY['contacts:read', 'contacts:write', 'fields:read', 'fields:write', 'flows:enroll', 'flows:read',
                        'messages:read', 'messages:send', 'tags:read', 'tags:write'];
  second text[] := first || ARRAY['events:read', 'events:write'];
  third text[] := second || ARRAY['webhooks:read', 'webhooks:write'];
BEGIN
  SELECT min(finished_at) INTO events_at FROM "_prisma_migrations"
    WHERE migration_name = '20261127110119_contact_events' AND rolled_back_at IS NULL;
  SELECT min(finished_at) INTO webhooks_at FROM "_prisma_migrations"
    WHERE migration_name = '20261127134810_suppressions' AND rolled_back_at IS NULL;
  UPDATE "api_keys" k SET "scopes" = ARRAY['*']
  WHERE NOT ('*' = ANY(k."scopes"))
    AND (SELECT array_agg(DISTINCT s ORDER BY s) FROM unnest(k."scopes") s) = (
      SELECT array_agg(s ORDER BY s) FROM unnest(
        CASE
          WHEN events_at IS NOT NULL AND k."created_at" < events_at THEN first
          WHEN webhooks_at IS NOT NULL AND k."created_at" < webhooks_at THEN second
          ELSE third
        END) s);
END $$;
