-- SMS, the third channel (D94-D97): the channel type; a contact's sms opt-out (D96); each sms
-- message's encoding and segment count (D97), which GET /usage sums over the month's live sms.
-- Columns added to distributed tables and a value added to an enum are propagated by Citus
-- as they are (20261206120100_citus_layout): nothing more is needed there.
ALTER TYPE "ChannelType" ADD VALUE 'sms';

ALTER TABLE "contacts" ADD COLUMN "opt_out_sms" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "messages" ADD COLUMN "sms" JSONB;
