import pg from "pg";
import { inject } from "vitest";

export type LoggedEvent = { id: string; name: string; mode: string; data: any; created_at: Date };

/**
 * The event-log rows about a contact, read straight from PostgreSQL (the embedded store is
 * held by the server process, so on PGlite the tests read them through the dashboard API).
 */
export async function contactEvents(contactId: string): Promise<LoggedEvent[]> {
  const client = new pg.Client({ connectionString: inject("api").env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT id, name, mode::text AS mode, data, created_at FROM events WHERE contact_id = $1 ORDER BY created_at, id",
      [contactId],
    );
    return rows;
  } finally {
    await client.end();
  }
}
