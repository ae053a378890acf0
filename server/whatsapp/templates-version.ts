import type { Handle } from "../db/client.ts";

// A workspace's templates_version changes with every change to what a template send is checked
// against: its WhatsApp templates, and which of its channels are connected (a send without a
// channel uses the first connected one). The key check reads it in the statement every API
// request runs, so a process may answer a send from a template it read at the same version
// (`lookUpTemplate`) and still see every change committed before the request, whichever
// instance made it. Each writer of templates and of channels' connection calls this in the
// transaction that changes them (D87: no trigger does it).

/** Moves the templates_version of each of `workspaceIds` on, one statement per workspace (D87). */
export async function bumpTemplatesVersion(sql: Handle, workspaceIds: Iterable<string>): Promise<void> {
  for (const id of new Set(workspaceIds)) {
    await sql(`UPDATE workspaces SET templates_version = templates_version + 1 WHERE id = $1`, [id]);
  }
}
