-- CreateTable
CREATE TABLE "sns_messages" (
    "message_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sns_messages_pkey" PRIMARY KEY ("message_id")
);

-- CreateIndex
CREATE INDEX "sns_messages_received_at_idx" ON "sns_messages"("received_at");
