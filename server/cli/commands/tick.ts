import { runPipeline } from "../../pipeline/run-pipeline.ts";
import { UsageError, withDatabase, type Command } from "../command.ts";

export const tick: Command = {
  name: "tick",
  summary: "Run one pass of the delivery pipeline and exit",
  usage: "tick [--budget-ms N]",
  help: [["--budget-ms N", "stop claiming new work after N milliseconds (default 20000)"]],
  options: { "budget-ms": { type: "string" } },
  flags: { "budget-ms": "--budget-ms" },
  async run(values) {
    const raw = values["budget-ms"];
    const budgetMs = typeof raw === "string" ? Number(raw) : 20_000;
    if (!Number.isInteger(budgetMs) || budgetMs < 0) throw new UsageError("--budget-ms must be a whole number of milliseconds.");
    const counts = await withDatabase((database) => runPipeline(database, { budgetMs }));
    const text = Object.entries(counts)
      .map(([k, v]) => `${k}: ${v}`)
      .join(", ");
    return { json: counts, text: `Pipeline pass done. ${text}` };
  },
};
