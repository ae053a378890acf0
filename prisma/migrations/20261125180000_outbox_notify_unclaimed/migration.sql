-- A job written already claimed by the process that wrote it (server/outbox/handoff.ts) is
-- started by that process at commit: no other instance needs waking for it. Only due jobs that
-- no worker holds notify.
CREATE OR REPLACE FUNCTION jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE run_at <= now() + interval '1 second' AND lease_owner IS NULL) THEN
    PERFORM pg_notify('svc_jobs', '');
  END IF;
  RETURN NULL;
END $$;
