-- The dashboard's one search box (server/search/search.ts, docs/dashboard.md "Search"). By
-- hand: Prisma cannot declare indexes on expressions or functions; its diff ignores these.

-- A contact's name from its start, any case: "ana" finds "Ana Lima" through the range
-- lower(name) ~>=~ 'ana' AND lower(name) ~<~ 'ana' || chr(1114111) (text_pattern_ops
-- compares bytes, so the range is exactly the names that start with it).
CREATE INDEX "contacts_workspace_id_lower_name_idx" ON "contacts"("workspace_id", lower("name") text_pattern_ops) WHERE "name" IS NOT NULL;

-- A message's metadata values (D57: at most 20 strings), each prefixed with its workspace so
-- one workspace's common value never reads another's rows: "ord_3" is found whole, by any key.
CREATE FUNCTION message_metadata_terms(workspace_id text, metadata jsonb) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(workspace_id || ' ' || v), '{}') FROM jsonb_each_text(CASE WHEN jsonb_typeof(metadata) = 'object' THEN metadata ELSE '{}'::jsonb END) AS e(k, v) $$;

CREATE INDEX "messages_metadata_terms_idx" ON "messages" USING GIN (message_metadata_terms("workspace_id", "metadata"));
