-- New due work wakes every instance's pipeline at once instead of at its next poll: a statement
-- that inserts jobs due now sends one notification on `svc_jobs` (server/outbox/wake.ts).
-- PostgreSQL delivers it at commit, only if the transaction commits, and sends the same
-- notification once per transaction however many statements raise it.
CREATE FUNCTION jobs_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM inserted WHERE run_at <= now() + interval '1 second') THEN
    PERFORM pg_notify('svc_jobs', '');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER jobs_notify AFTER INSERT ON jobs REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION jobs_notify();
