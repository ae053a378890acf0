import { describe, expect, it } from "vitest";
import { openFreshDatabase } from "../../e2e/support/open-database.ts";
import { bumpTemplatesVersion } from "./templates-version.ts";
import { lookUpTemplate, templateForSend, type TemplateChannel, type TemplateRequest } from "./check-template-send.ts";

// Issue 12: template reads that arrive together share one statement; each gets what
// `templateForSend` answers alone (D42's errors included), on its own channel or on the
// workspace's first connected one; and a template read at a workspace's templates_version is
// kept until the version changes, which every change to its templates or channels does.
describe.each(["pglite", "postgres"] as const)("template look-ups on %s", (engine) => {
  it("answers concurrent look-ups as one look-up each would", async () => {
    const { database, drop } = await openFreshDatabase(engine, "template_lookup");
    try {
      await database.query(`INSERT INTO workspaces (id, name) VALUES ('ws-a', 'A'), ('ws-b', 'B')`);
      await database.query(
        `INSERT INTO channels (id, workspace_id, type, name, external_id, secrets, created_at, disconnected_at) VALUES
           ('ch_a1', 'ws-a', 'whatsapp', 'First', '1', '', now() - interval '2 days', NULL),
           ('ch_a2', 'ws-a', 'whatsapp', 'Second', '2', '', now() - interval '1 day', NULL),
           ('ch_a0', 'ws-a', 'whatsapp', 'Gone', '0', '', now() - interval '3 days', now()),
           ('ch_b1', 'ws-b', 'whatsapp', 'Other', '3', '', now(), NULL)`,
      );
      await database.query(
        `INSERT INTO whatsapp_templates (id, workspace_id, channel_id, name, language, category, status, body) VALUES
           ('tpl_1', 'ws-a', 'ch_a1', 'order_shipped', 'en_US', 'utility', 'approved', 'Shipped'),
           ('tpl_2', 'ws-a', 'ch_a1', 'order_shipped', 'pt_BR', 'utility', 'paused', 'Enviado'),
           ('tpl_3', 'ws-a', 'ch_a2', 'welcome', 'en_US', 'marketing', 'approved', 'Hi'),
           ('tpl_4', 'ws-a', 'ch_a0', 'welcome', 'en_US', 'marketing', 'approved', 'Old'),
           ('tpl_5', 'ws-b', 'ch_b1', 'order_shipped', 'en_US', 'utility', 'approved', 'Theirs')`,
      );
      const asks: [TemplateChannel, TemplateRequest][] = [
        [
          { id: null, workspaceId: "ws-a" },
          { name: "order_shipped", language: "en_US" },
        ],
        [
          { id: "ch_a1", workspaceId: "ws-a" },
          { name: "order_shipped", language: "en_US" },
        ],
        [
          { id: "ch_a1", workspaceId: "ws-a" },
          { name: "order_shipped", language: "pt_BR" },
        ],
        [
          { id: null, workspaceId: "ws-a" },
          { name: "welcome", language: "en_US" },
        ],
        [
          { id: "ch_a2", workspaceId: "ws-a" },
          { name: "welcome", language: "en_US" },
        ],
        [
          { id: "ch_a2", workspaceId: "ws-a" },
          { name: "order_shipped", language: "en_US" },
        ],
        [
          { id: null, workspaceId: "ws-b" },
          { name: "order_shipped", language: "en_US" },
        ],
      ];
      const outcome = (p: Promise<{ id: string }>) =>
        p.then(
          (t) => t.id,
          (err: { code?: string }) => err.code,
        );
      const together = await Promise.all(asks.map(([channel, request]) => outcome(lookUpTemplate(database, channel, request))));
      const alone = [];
      for (const [channel, request] of asks) alone.push(await outcome(templateForSend(database.query, channel, request)));
      expect(together).toEqual(alone);
      expect(together).toEqual(["tpl_1", "tpl_1", "template_not_approved", "template_not_found", "tpl_3", "template_not_found", "tpl_5"]);

      // Kept per workspace version: every change to what a send is checked against changes it.
      const version = async (ws: string) =>
        (await database.query<{ v: string }>(`SELECT templates_version::text AS v FROM workspaces WHERE id = $1`, [ws]))[0]!.v;
      const shipped = { name: "order_shipped", language: "en_US" };
      const before = await version("ws-a");
      const other = await version("ws-b");
      expect((await lookUpTemplate(database, { id: null, workspaceId: "ws-a" }, shipped, before)).status).toBe("approved");
      await database.query(`UPDATE whatsapp_templates SET status = 'paused' WHERE id = 'tpl_1'`);
      // As the writers of templates do in their transaction (D87: no trigger).
      await bumpTemplatesVersion(database.query, ["ws-a"]);
      const paused = await version("ws-a");
      expect(paused).not.toBe(before);
      expect(await version("ws-b")).toBe(other);
      await expect(lookUpTemplate(database, { id: null, workspaceId: "ws-a" }, shipped, paused)).rejects.toMatchObject({
        code: "template_not_approved",
      });
      // Only the same version is answered from memory: a request that read an older one reads anew.
      await expect(lookUpTemplate(database, { id: null, workspaceId: "ws-a" }, shipped, before)).rejects.toMatchObject({
        code: "template_not_approved",
      });
      // The first connected channel changes with a disconnection: the fallback then reads ch_a2.
      await database.query(`UPDATE channels SET disconnected_at = now() WHERE id = 'ch_a1'`);
      await bumpTemplatesVersion(database.query, ["ws-a"]);
      const disconnected = await version("ws-a");
      expect(disconnected).not.toBe(paused);
      const welcome = { name: "welcome", language: "en_US" };
      expect((await lookUpTemplate(database, { id: null, workspaceId: "ws-a" }, welcome, disconnected)).id).toBe("tpl_3");
      await database.query(`DELETE FROM whatsapp_templates WHERE id = 'tpl_3'`);
      await bumpTemplatesVersion(database.query, ["ws-a"]);
      await expect(lookUpTemplate(database, { id: null, workspaceId: "ws-a" }, welcome, await version("ws-a"))).rejects.toMatchObject({
        code: "template_not_found",
      });
    } finally {
      await drop();
    }
  });
});
