// The baseline of POST /messages (issue "Messages", Done means): a minimal node:http + pg
// server executing the same statements per request in one transaction: key lookup,
// idempotency claim, message and outbox insert. Run by bench/messages.ts as a child process.
import { createHash, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const contactId = process.env.CONTACT_ID!;
const id = (p: string) => `${p}_${Date.now().toString(36)}${randomBytes(12).toString("base64url")}`;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const raw = Buffer.concat(chunks).toString();
    const hash = createHash("sha256")
      .update((req.headers.authorization ?? "").slice(7))
      .digest("hex");
    const client = await pool.connect();
    try {
      const body = JSON.parse(raw);
      await client.query("BEGIN");
      const key = await client.query(
        "SELECT k.id, k.workspace_id, k.mode::text AS mode, w.plan FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id WHERE k.hash = $1",
        [hash],
      );
      const k = key.rows[0];
      await client.query(
        `INSERT INTO idempotency_records (workspace_id, mode, method, path, key, body_hash, status, expires_at)
         VALUES ($1, $2::"KeyMode", 'POST', '/messages', $3, $4, 'in_progress', now() + interval '24 hours') ON CONFLICT DO NOTHING`,
        [k.workspace_id, k.mode, String(req.headers["idempotency-key"]), createHash("sha256").update(raw).digest("hex")],
      );
      const messageId = id("msg");
      await client.query(
        `INSERT INTO messages (id, workspace_id, mode, channel, contact_id, "to", status, content) VALUES ($1, $2, $3::"KeyMode", 'whatsapp', $4, $5, 'queued', $6::jsonb)`,
        [messageId, k.workspace_id, k.mode, contactId, body.to.phone, JSON.stringify(body.whatsapp)],
      );
      await client.query(
        `INSERT INTO jobs (id, kind, subject_id, workspace_id, payload, run_at) VALUES ($1, 'message.simulate', $2, $3, '{"outcome":"read","step":0}', now())`,
        [id("job"), messageId, k.workspace_id],
      );
      await client.query("COMMIT");
      res.writeHead(202, { "Content-Type": "application/json" }).end(JSON.stringify({ id: messageId, status: "queued" }));
    } catch (err) {
      await client.query("ROLLBACK").catch(() => {});
      res.writeHead(500).end(String(err));
    } finally {
      client.release();
    }
  });
});
server.listen(0, () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
