-- The webhook fan-out is code: every statement that records events also writes their webhook
-- deliveries and jobs, as CTEs of that statement (server/webhooks/deliveries.ts `fanOut`, through
-- server/events/record-event.ts, the events table's one writer), with ids of server/lib/ids.ts's
-- shape and jobs through the outbox's one INSERT (server/outbox/jobs.ts). The trigger did the same
-- out of sight of the code, so it goes.
--
-- The triggers that stay are those whose point is to be a trigger:
-- - `jobs_notify`: a statement that inserts due work, whatever it is, wakes every instance's
--   pipeline with one NOTIFY, which PostgreSQL delivers at commit and only if it commits, once per
--   transaction (server/outbox/wake.ts).
-- - `whatsapp_templates_version`, `channels_templates_version`: any change to a workspace's
--   templates or connected channels (a sync, the dashboard, a cascade from a deleted workspace)
--   moves its `templates_version`, which lets a request trust the template and channel it read
--   at that version; a change no writer sees (a cascade) must move it too.
DROP TRIGGER events_webhook_fanout ON events;
DROP FUNCTION webhook_fanout();
