-- What one message costs (docs/deploy.md, "Past one database"): a delivery that succeeds keeps
-- its successful attempt on its own row instead of a row of "webhook_attempts" (one row and
-- its two index entries less per delivery), and retention finds old deliveries by a BRIN index
-- on "created_at" instead of a B-tree (one index entry less per delivery).
ALTER TABLE "webhook_deliveries" ADD COLUMN "succeeded_at" TIMESTAMPTZ(3),
ADD COLUMN "succeeded_duration_ms" INTEGER,
ADD COLUMN "succeeded_excerpt" TEXT;

DROP INDEX "webhook_deliveries_created_at_idx";
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" USING BRIN ("created_at");
