-- WhatsApp refusals and the e-mail reputation guard: a contact remembers that it stopped
-- marketing messages; a channel can be paused (every send, or journey sends only) with the
-- reason; each e-mail channel keeps daily counters of what it sent, what was delivered, and
-- the complaints and hard bounces, read over a rolling 7-day window; a workspace keeps the
-- guard's thresholds.
ALTER TABLE "contacts" ADD COLUMN "whatsapp_marketing_opt_out" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "channels" ADD COLUMN "paused_at" TIMESTAMPTZ(3),
ADD COLUMN "paused_reason" TEXT;

ALTER TABLE "workspaces" ADD COLUMN "guard" JSONB NOT NULL DEFAULT '{}';

CREATE TABLE "channel_reputation" (
    "workspace_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "sent" INTEGER NOT NULL DEFAULT 0,
    "delivered" INTEGER NOT NULL DEFAULT 0,
    "complaints" INTEGER NOT NULL DEFAULT 0,
    "bounces" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "channel_reputation_pkey" PRIMARY KEY ("workspace_id","channel_id","day")
);

-- On Citus the new table joins the workspace's data (the layout of 20261206120100_citus_layout).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
    PERFORM create_distributed_table('channel_reputation', 'workspace_id', colocate_with => 'workspaces');
  END IF;
END $$;
