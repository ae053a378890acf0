-- What a WhatsApp message costs: each message keeps the pricing of its latest status report,
-- the usage counters of its day count them by category (charged or free), and a workspace
-- keeps its prices and their currency.
ALTER TABLE "messages" ADD COLUMN "pricing" JSONB;

ALTER TABLE "usage_counters" ADD COLUMN "whatsapp_pricing" JSONB NOT NULL DEFAULT '{}';

ALTER TABLE "workspaces" ADD COLUMN "currency" TEXT,
ADD COLUMN "whatsapp_prices" JSONB NOT NULL DEFAULT '{}';
