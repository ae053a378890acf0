import { randomUUID } from "node:crypto";
import { startFakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { svc } from "../../e2e/support/svc.ts";
import { combined, interleaved, load, roundsNote } from "../load.ts";
import { record, SECONDS, WARMUP, withServer } from "../support.ts";

// Template sends next to free-form sends, accepted per second in the same run on the same
// server (issue 12: at least 0.9×). A template send reads the channel's synced copy of the
// template and checks its parameters before the same write as a free-form send.

const WABA_ID = "100200300";

const FREE_FORM = JSON.stringify({
  channel: "whatsapp",
  to: { phone: "+5511987654321" },
  whatsapp: { body: "Your code is {{code}}" },
  variables: { code: 1234 },
});

const TEMPLATE = JSON.stringify({
  channel: "whatsapp",
  to: { phone: "+5511987654321" },
  whatsapp: { template: { name: "order_shipped", language: "en_US", parameters: { "1": "{{name}}", "2": "{{order}}" } } },
  variables: { name: "Ana", order: "A-1042" },
});

export async function templateSends(): Promise<void> {
  const fake = await startFakeWhatsApp({ latencyMs: 5 });
  fake.templates.set(WABA_ID, [
    {
      name: "order_shipped",
      language: "en_US",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hi {{1}}, your order {{2}} has shipped." }],
    },
  ]);
  try {
    // Accepting only: the pipeline is off, so both kinds cost the same after the accept.
    await withServer("postgres", { PIPELINE: "off", ALLOW_PRIVATE_WEBHOOKS: "1" }, async ({ url, keys, env }) => {
      // Not execFileSync: the connect syncs the templates from the fake Cloud API, which this
      // process serves, so the CLI must run without blocking it.
      const connect = await svc(
        { ...process.env, ...env },
        "channel",
        "connect",
        "--workspace",
        keys.workspace,
        "--type",
        "whatsapp",
        "--phone-number-id",
        "5550009",
        "--waba-id",
        WABA_ID,
        "--access-token",
        "t",
        "--app-secret",
        "s",
        "--verify-token",
        "v",
        "--api-base-url",
        fake.url,
        "--json",
      );
      if (connect.code !== 0 || connect.stderr) throw new Error(`svc channel connect failed: ${connect.stderr}`);
      const headers = { Authorization: `Bearer ${keys.testKey}`, "Content-Type": "application/json" };
      const accepted = (body: string) =>
        load({
          url: `${url}/api/v1/messages`,
          method: "POST",
          seconds: SECONDS,
          warmupSeconds: WARMUP,
          headers,
          body,
          setupRequest: (req) => ({ ...req, headers: { ...headers, "Idempotency-Key": randomUUID() }, body }),
        });
      // A first round of each kind warms the server (the first round of a run measured 10-20%
      // slower than the later ones, whichever its kind), then four rounds of each, interleaved.
      const { a: template, b: freeForm } = await interleaved(
        () => accepted(TEMPLATE),
        () => accepted(FREE_FORM),
      );
      if (template.some((r) => r.non2xx > 0)) throw new Error("template sends: answers other than 202");
      const [f, t] = [combined(freeForm), combined(template)];
      record("POST /messages, WhatsApp free-form (test key)", { ...f, note: roundsNote(freeForm) });
      record("POST /messages, WhatsApp template (test key)", {
        ...t,
        note: `${(t.rps / f.rps).toFixed(2)}× free-form in the same run (target ≥ 0.9×); ${roundsNote(template)}`,
      });
    });
  } finally {
    await fake.close();
  }
}
