// The ceiling for a request that writes: a bare node:http server doing one PostgreSQL insert
// per request (issue "Foundation", Done means). Run by bench/run.ts as a child process.
import { createServer } from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
await pool.query("CREATE TABLE IF NOT EXISTS bench_hits (id bigserial PRIMARY KEY, at timestamptz NOT NULL DEFAULT now(), key text)");
const server = createServer((req, res) => {
  pool.query("INSERT INTO bench_hits (key) VALUES ($1)", [req.headers.authorization ?? null]).then(
    () => {
      res.setHeader("Content-Type", "application/json");
      res.end('{"ok":true}');
    },
    (err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    },
  );
});
server.listen(0, () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
process.on("SIGTERM", () => server.close(() => pool.end().then(() => process.exit(0))));
