import { randomUUID } from "node:crypto";
import { startFakeWhatsApp } from "../../e2e/support/fake-whatsapp.ts";
import { svc } from "../../e2e/support/svc.ts";
import { load, type LoadResult } from "../load.ts";
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
      // slower than the later ones, whichever its kind), then four rounds of each in an order
      // that gives both kinds the same mean position in time; rounds of one kind differ by up
      // to 10% on this machine, so one round each could not tell 0.9x from 1.0x.
      await accepted(FREE_FORM);
      await accepted(TEMPLATE);
      const rounds = { freeForm: [] as LoadResult[], template: [] as LoadResult[] };
      for (const kind of ["template", "freeForm", "freeForm", "template", "freeForm", "template", "template", "freeForm"] as const) {
        rounds[kind].push(await accepted(kind === "freeForm" ? FREE_FORM : TEMPLATE));
      }
      if (rounds.template.some((r) => r.non2xx > 0)) throw new Error("template sends: answers other than 202");
      const freeForm = combined(rounds.freeForm);
      const template = combined(rounds.template);
      const each = (rs: LoadResult[]) => `rounds ${rs.map((r) => Math.round(r.rps)).join(" and ")}/s`;
      record("POST /messages, WhatsApp free-form (test key)", { ...freeForm, note: each(rounds.freeForm) });
      record("POST /messages, WhatsApp template (test key)", {
        ...template,
        note: `${(template.rps / freeForm.rps).toFixed(2)}× free-form in the same run (target ≥ 0.9×); ${each(rounds.template)}`,
      });
    });
  } finally {
    await fake.close();
  }
}

/** The rounds of one kind as one figure: the mean rate and median, the worse p99. */
function combined(rs: LoadResult[]): LoadResult {
  const mean = (f: (r: LoadResult) => number) => Math.round(rs.reduce((n, r) => n + f(r), 0) / rs.length);
  const sum = (f: (r: LoadResult) => number) => rs.reduce((n, r) => n + f(r), 0);
  return {
    rps: mean((r) => r.rps),
    p50: mean((r) => r.p50),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    total: sum((r) => r.total),
  };
}
