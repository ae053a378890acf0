// Which transaction handle (issue 11, "One transaction handle"): the key-check-like single-row
// select and the message-accept insert, executed one after another through today's driver layer
// (`Database.query` / `Database.transaction`), Kysely (its query builder, and its raw
// `executeQuery` with the same SQL text) and Prisma's `$queryRawUnsafe` (alone and in
// `$transaction`), on PostgreSQL and on PGlite. Prints µs per operation, the median of ROUNDS
// rounds run interleaved so that a busy machine slows every variant alike, and the best round.
//   npx tsx bench/handle.ts            (HANDLE_N=1000 operations per variant and round)
import { PGlite } from "@electric-sql/pglite";
import { CompiledQuery, Kysely, PostgresDialect, sql as k, type Transaction } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { OPERATOR } from "../server/lib/caller.ts";
import { closeDb, db, type Database, type Handle } from "../server/db/client.ts";
import { pgliteDatabase } from "../server/db/pglite-database.ts";
import { createKey } from "../server/keys/create-key.ts";
import { sha256Hex } from "../server/lib/crypto.ts";
import { newId } from "../server/lib/ids.ts";
import { insertMessage, type NewMessage } from "../server/messaging/insert-messages.ts";
import { simulatedOutcome } from "../server/messaging/test-mode.ts";
import { jobRow } from "../server/outbox/jobs.ts";
import { createWorkspace } from "../server/workspaces/create-workspace.ts";
import { freshDatabase } from "../e2e/support/database.ts";
import { sql } from "./support.ts";

const N = Number(process.env.HANDLE_N ?? 1000);
const ROUNDS = Number(process.env.HANDLE_ROUNDS ?? 5);

/** The tables the two statements touch, typed by hand for this measurement. */
type DB = {
  api_keys: { id: string; workspace_id: string; mode: string; hash: string; scopes: string[]; revoked_at: Date | null };
  workspaces: { id: string; plan: string; rate_limit: number | null; default_country: string | null };
  messages: {
    id: string;
    workspace_id: string;
    mode: string;
    channel: string;
    channel_id: string | null;
    contact_id: string;
    to: string;
    status: string;
    content: string;
    source: string;
    created_at: Date;
    metadata: string;
    api_key_id: string | null;
    run_id: string | null;
  };
  message_history: { message_id: string; at: Date; kind: string; status: string; detail: string };
  jobs: Record<(typeof JOB_COLUMNS)[number], unknown>;
};

const JOB_COLUMNS = [
  "id",
  "kind",
  "subject_id",
  "workspace_id",
  "channel_id",
  "payload",
  "run_at",
  "created_at",
  "request_id",
  "traceparent",
] as const;

// The key check's read (server/keys/authenticate-key.ts without its counter writes).
const KEY_SELECT = `SELECT k.id, k.workspace_id, k.mode::text AS mode, k.scopes, k.revoked_at IS NOT NULL AS revoked,
  w.plan::text AS plan, w.rate_limit, w.default_country
  FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hash = $1`;

const keySelectBuilt = (q: Kysely<DB> | Transaction<DB>, hash: string) =>
  q
    .selectFrom("api_keys as k")
    .innerJoin("workspaces as w", "w.id", "k.workspace_id")
    .select([
      "k.id",
      "k.workspace_id",
      k<string>`k.mode::text`.as("mode"),
      "k.scopes",
      k<boolean>`k.revoked_at IS NOT NULL`.as("revoked"),
      k<string>`w.plan::text`.as("plan"),
      "w.rate_limit",
      "w.default_country",
    ])
    .where("k.hash", "=", hash)
    .executeTakeFirst();

// The message-accept insert (send-message.ts INSERT_MESSAGE) written with Kysely's builder.
async function insertMessageBuilt(q: Transaction<DB>, m: NewMessage): Promise<string> {
  const now = new Date();
  const id = newId("message");
  const job = jobRow(
    "message.simulate",
    { outcome: simulatedOutcome(m.address), step: 0 },
    { subjectId: id, workspaceId: m.sender.workspaceId, channelId: m.channelId, at: now },
  );
  await q
    .with("m", (w) =>
      w
        .insertInto("messages")
        .values({
          id,
          workspace_id: m.sender.workspaceId,
          mode: k`${m.sender.mode}::"KeyMode"`,
          channel: k`${m.channel}::"ChannelType"`,
          channel_id: m.channelId,
          contact_id: m.contactId,
          to: m.address,
          status: "queued",
          content: k`${JSON.stringify(m.content)}::jsonb`,
          source: m.source,
          created_at: now,
          metadata: k`${JSON.stringify(m.metadata ?? {})}::jsonb`,
          api_key_id: m.apiKeyId ?? null,
          run_id: m.runId ?? null,
        })
        .returning("id"),
    )
    .with("h", (w) =>
      w
        .insertInto("message_history")
        .columns(["message_id", "at", "kind", "status", "detail"])
        .expression((e) =>
          e
            .selectFrom("m")
            .select([
              "m.id",
              k<Date>`${now}`.as("at"),
              k<string>`'status'`.as("kind"),
              k<string>`'queued'`.as("status"),
              k<string>`${JSON.stringify({ source: m.source })}::jsonb`.as("detail"),
            ]),
        ),
    )
    .insertInto("jobs")
    .columns(JOB_COLUMNS)
    .expression(
      k`SELECT ${k.join(JOB_COLUMNS.map((c) => k.ref(c)))} FROM json_populate_recordset(NULL::jobs, ${JSON.stringify([job])}::json)`,
    )
    .execute();
  return id;
}

type Variant = { name: string; run: () => Promise<unknown> };

async function measure(engine: string, variants: Variant[]): Promise<void> {
  for (const v of variants) for (let i = 0; i < Math.min(200, N); i++) await v.run(); // warm-up: plans, JIT
  const samples = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let r = 0; r < ROUNDS; r++) {
    for (const v of variants) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < N; i++) await v.run();
      samples.get(v.name)!.push(Number(process.hrtime.bigint() - start) / 1000 / N);
    }
  }
  for (const v of variants) {
    const s = samples.get(v.name)!.sort((a, b) => a - b);
    console.log(`| ${engine} | ${v.name} | ${s[Math.floor(s.length / 2)]!.toFixed(0)} | ${s[0]!.toFixed(0)} |`);
  }
}

/** The variants on one engine: `database` is today's layer, `kysely` and `database.prisma` run on the same store. */
async function run(engine: string, database: Database, kysely: Kysely<DB>): Promise<void> {
  const { id: workspaceId } = await createWorkspace(database, { name: "Handle", plan: "scale", defaultCountry: "BR" }, OPERATOR);
  const { key } = await createKey(database, workspaceId, { mode: "test", name: "handle" }, OPERATOR);
  const hash = sha256Hex(key);
  const contactId = newId("contact");
  await database.query(`INSERT INTO contacts (id, workspace_id, phone) VALUES ($1, $2, '+5511999990000')`, [contactId, workspaceId]);
  const message: NewMessage = {
    sender: { workspaceId, mode: "test" },
    channel: "whatsapp",
    channelId: null,
    contactId,
    address: "+5511999990000",
    content: { body: "Your code is 123456" },
    source: "api",
    metadata: {},
  };
  const prisma = database.prisma;
  const viaKysely =
    (q: Kysely<DB> | Transaction<DB>): Handle =>
    async <T>(text: string, values: unknown[] = []) =>
      (await q.executeQuery<T>(CompiledQuery.raw(text, values))).rows;
  const viaPrisma =
    (q: Pick<typeof prisma, "$queryRawUnsafe">): Handle =>
    <T>(text: string, values: unknown[] = []) =>
      q.$queryRawUnsafe<T[]>(text, ...values);
  const check = (rows: unknown) => {
    if (!rows) throw new Error("the key was not found");
  };

  await measure(engine, [
    { name: "select: Database.query", run: async () => check((await database.query(KEY_SELECT, [hash]))[0]) },
    { name: "select: Kysely builder", run: async () => check(await keySelectBuilt(kysely, hash)) },
    { name: "select: Kysely raw SQL", run: async () => check((await viaKysely(kysely)(KEY_SELECT, [hash]))[0]) },
    { name: "select: Prisma $queryRawUnsafe", run: async () => check((await viaPrisma(prisma)(KEY_SELECT, [hash]))[0]) },
    {
      name: "select: Prisma $queryRawUnsafe in $transaction",
      run: async () => check((await prisma.$transaction((tx) => viaPrisma(tx)(KEY_SELECT, [hash])))[0]),
    },
    { name: "insert: Database.query (autocommit)", run: () => insertMessage(database.query, message) },
    { name: "insert: Database.transaction", run: () => database.transaction((sql) => insertMessage(sql, message)) },
    { name: "insert: Kysely builder in transaction", run: () => kysely.transaction().execute((trx) => insertMessageBuilt(trx, message)) },
    {
      name: "insert: Kysely raw SQL in transaction",
      run: () => kysely.transaction().execute((trx) => insertMessage(viaKysely(trx), message)),
    },
    {
      name: "insert: Prisma $queryRawUnsafe in $transaction",
      run: () => prisma.$transaction((tx) => insertMessage(viaPrisma(tx), message)),
    },
  ]);
}

console.log(`µs per operation, one at a time, ${N} per variant and round, ${ROUNDS} rounds\n`);
console.log("| engine | variant | median µs/op | best round |\n|---|---|---:|---:|");

// PostgreSQL: a scratch database from the migrated template, dropped after. Today's layer as the
// server opens it (a pool of 20, named statements); Kysely on a pg Pool of the same size.
const postgres = await freshDatabase("postgres", "handle", { migrated: true });
try {
  Object.assign(process.env, postgres.env, { LOG_LEVEL: "warn" });
  // The commit's WAL flush costs every variant the same and varies with the disk's other work;
  // without it the inserts compare what the handles themselves cost.
  await sql(
    postgres.env.DATABASE_URL!,
    `ALTER DATABASE ${new URL(postgres.env.DATABASE_URL!).pathname.slice(1)} SET synchronous_commit = off`,
  );
  const database = await db();
  const pool = new pg.Pool({ connectionString: postgres.env.DATABASE_URL, max: 20 });
  const kysely = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  try {
    await run("PostgreSQL", database, kysely);
  } finally {
    await kysely.destroy();
    await closeDb();
  }
} finally {
  await postgres.drop();
}

// PGlite: a copy of the migrated template; Kysely through kysely-pglite-dialect on the same PGlite.
const embedded = await freshDatabase("pglite", "handle", { migrated: true });
try {
  const client = await PGlite.create(`${embedded.env.DATA_DIR}/pglite`);
  const database = pgliteDatabase(client);
  const kysely = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  try {
    await run("PGlite", database, kysely);
  } finally {
    await database.close();
  }
} finally {
  await embedded.drop();
}
