-- CreateTable
CREATE TABLE "service_settings" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "service_settings_pkey" PRIMARY KEY ("name")
);
