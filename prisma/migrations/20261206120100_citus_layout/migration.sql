-- D87: on a database where the `citus` extension is installed, every table is laid out for it:
-- a workspace's data distributed by "workspace_id" and co-located with "workspaces" (so a
-- statement that names one workspace runs on one node, and keys, joins and foreign keys stay
-- within it), the small global tables copied to every node as reference tables. Nothing stays
-- local to the coordinator: the block fails when a table is left out of the lists below.
-- On PostgreSQL without Citus and on the embedded store the block does nothing.
-- The tables are empty when a fresh installation migrates (the demo workspace is created after
-- the migrations); an existing installation moving to Citus: docs/deploy.md, "Past one database".
DO $$
DECLARE
  t text;
  -- Global: looked up without a workspace (a key by its hash, a user by e-mail, a session by
  -- its id, a rate-limit window by its key) or belonging to none. Written rarely, except the
  -- rate-limit counters (docs/architecture.md, "Database").
  reference_tables text[] := ARRAY['users', 'dashboard_sessions', 'service_settings', 'api_keys',
    'rate_limit_counters', 'sns_messages', '_prisma_migrations'];
  -- A workspace's data.
  workspace_tables text[] := ARRAY['memberships', 'idempotency_records', 'tags', 'custom_fields',
    'contacts', 'contact_email_duplicates', 'contact_tags', 'events', 'channels', 'messages',
    'whatsapp_templates', 'message_history', 'jobs', 'usage_counters', 'channel_pacing',
    'webhook_endpoints', 'webhook_secrets', 'webhook_deliveries', 'webhook_attempts', 'flows',
    'flow_versions', 'flow_runs', 'contact_events', 'contact_event_ids', 'flow_run_history',
    'flow_step_stats', 'flow_step_messages', 'audit_events', 'suppressions'];
  left_local text;
  fk record;
  fks jsonb;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    RETURN;
  END IF;
  -- One transaction creates the shards of every table and their foreign keys between
  -- co-located shards: Citus asks for one connection per node for that.
  PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);
  -- Citus distributes a table only when no local table's foreign key reaches it: the foreign
  -- keys are taken off, the tables laid out, and the same keys put back (now between shards).
  SELECT coalesce(jsonb_agg(jsonb_build_object('rel', c.conrelid::regclass::text, 'name', c.conname,
           'def', pg_get_constraintdef(c.oid))), '[]')
    INTO fks
  FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
  WHERE c.contype = 'f' AND n.nspname = 'public';
  FOR fk IN SELECT * FROM jsonb_to_recordset(fks) AS x(rel text, name text, def text) LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.rel, fk.name);
  END LOOP;
  FOREACH t IN ARRAY reference_tables LOOP
    PERFORM create_reference_table(t);
  END LOOP;
  PERFORM create_distributed_table('workspaces', 'id');
  FOREACH t IN ARRAY workspace_tables LOOP
    PERFORM create_distributed_table(t, 'workspace_id', colocate_with => 'workspaces');
  END LOOP;
  FOR fk IN SELECT * FROM jsonb_to_recordset(fks) AS x(rel text, name text, def text) LOOP
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.rel, fk.name, fk.def);
  END LOOP;
  SELECT string_agg(c.relname, ', ') INTO left_local
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
    AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid);
  IF left_local IS NOT NULL THEN
    RAISE EXCEPTION 'tables left local to the Citus coordinator: %', left_local;
  END IF;
END $$;
