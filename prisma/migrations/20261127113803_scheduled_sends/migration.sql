-- AlterEnum
ALTER TYPE "MessageStatus" ADD VALUE 'canceled';

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "canceled_at" TIMESTAMPTZ(3),
ADD COLUMN     "scheduled_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "usage_counters" ADD COLUMN     "canceled" INTEGER NOT NULL DEFAULT 0;
