-- AlterTable
ALTER TABLE "contacts" ADD COLUMN     "email_key" TEXT;

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "metadata" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "contact_email_duplicates" (
    "contact_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_key" TEXT NOT NULL,
    "holds_address" BOOLEAN NOT NULL,
    "reported_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_email_duplicates_pkey" PRIMARY KEY ("contact_id")
);

-- CreateIndex
CREATE INDEX "contact_email_duplicates_workspace_id_email_key_idx" ON "contact_email_duplicates"("workspace_id", "email_key");

-- D59: e-mail addresses are unique per workspace case-insensitively, through email_key =
-- lower(email). Nothing is merged: contacts that already share an address up to case are
-- reported in contact_email_duplicates (every contact of each group; the oldest one
-- `holds_address` and gets email_key, the others keep a null key) and in a NOTICE, and stay
-- as they are. New contacts and address changes can no longer collide with any of them.
WITH ranked AS (
  SELECT id, workspace_id, email, lower(email) AS key,
    row_number() OVER (PARTITION BY workspace_id, lower(email) ORDER BY created_at, id) AS rank,
    count(*) OVER (PARTITION BY workspace_id, lower(email)) AS size
  FROM contacts WHERE email IS NOT NULL
),
reported AS (
  INSERT INTO contact_email_duplicates (contact_id, workspace_id, email, email_key, holds_address)
  SELECT id, workspace_id, email, key, rank = 1 FROM ranked WHERE size > 1
)
UPDATE contacts c SET email_key = r.key FROM ranked r WHERE r.id = c.id AND r.rank = 1;

DO $$
DECLARE n integer;
BEGIN
  SELECT count(*) INTO n FROM contact_email_duplicates;
  IF n > 0 THEN
    RAISE NOTICE '% contacts share an e-mail address with another contact up to case; listed in contact_email_duplicates, not merged (D59)', n;
  END IF;
END $$;

-- CreateIndex
CREATE UNIQUE INDEX "contacts_workspace_id_email_key_key" ON "contacts"("workspace_id", "email_key");

-- CreateIndex
CREATE INDEX "messages_workspace_id_mode_created_at_id_idx" ON "messages"("workspace_id", "mode", "created_at" DESC, "id" DESC);

-- One event id format everywhere (D55): ids made inside SQL statements take the shape of
-- server/lib/ids.ts newId(): prefix, 9 base36 characters of epoch milliseconds, 16 base62.
CREATE FUNCTION svc_new_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
  time_part text := '';
  random_part text := '';
  bytes bytea := decode(md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text), 'hex');
  b integer;
  i integer := 0;
BEGIN
  WHILE ms > 0 LOOP
    time_part := substr('0123456789abcdefghijklmnopqrstuvwxyz', (ms % 36)::integer + 1, 1) || time_part;
    ms := ms / 36;
  END LOOP;
  -- Rejection sampling as in ids.ts (bytes of 248 and above are skipped): no modulo bias.
  WHILE length(random_part) < 16 LOOP
    IF i >= length(bytes) THEN
      bytes := decode(md5(gen_random_uuid()::text) || md5(gen_random_uuid()::text), 'hex');
      i := 0;
    END IF;
    b := get_byte(bytes, i);
    i := i + 1;
    IF b < 248 THEN
      random_part := random_part || substr(alphabet, b % 62 + 1, 1);
    END IF;
  END LOOP;
  RETURN prefix || '_' || lpad(time_part, 9, '0') || random_part;
END $$;
