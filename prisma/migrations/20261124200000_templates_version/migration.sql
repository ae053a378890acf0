-- A workspace's templates_version changes with every change to what a template send is checked
-- against: its WhatsApp templates, and which of its channels are connected (a send without a
-- channel uses the first connected one). The key check reads it in the statement every API
-- request runs, so a process may answer a send from a template it read at the same version
-- (server/whatsapp/templates.ts, `lookUpTemplate`) and still see every change committed
-- before the request, whichever instance made it.
ALTER TABLE "workspaces" ADD COLUMN "templates_version" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION bump_templates_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE workspaces SET templates_version = templates_version + 1
  WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.workspace_id ELSE NEW.workspace_id END;
  RETURN NULL;
END $$;

CREATE TRIGGER whatsapp_templates_version AFTER INSERT OR UPDATE OR DELETE ON whatsapp_templates
  FOR EACH ROW EXECUTE FUNCTION bump_templates_version();
CREATE TRIGGER channels_templates_version AFTER INSERT OR DELETE OR UPDATE OF disconnected_at ON channels
  FOR EACH ROW EXECUTE FUNCTION bump_templates_version();
