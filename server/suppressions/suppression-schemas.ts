import { z } from "zod";
import type { Columns } from "../db/rows.ts";

export const SUPPRESSION_REASONS = ["hard_bounce", "complaint", "manual"] as const;

export const ZSuppression = z
  .object({
    email: z.string().describe("The address, as first given."),
    reason: z
      .enum(SUPPRESSION_REASONS)
      .describe(
        "`hard_bounce`: a permanent delivery failure; `complaint`: the recipient reported the mail as spam; `manual`: added by you.",
      ),
    message_id: z.string().nullable().describe("The message whose bounce or complaint caused it (prefix `msg_`); null when added by hand."),
    detail: z.string().nullable().describe("The mail server's reply or the report's diagnostic, when there was one."),
    created_at: z.string().describe("ISO 8601 timestamp."),
  })
  .meta({ id: "Suppression" });

export type Suppression = z.infer<typeof ZSuppression>;

export type SuppressionRow = Columns<"suppressions", "email" | "reason" | "message_id" | "detail" | "created_at">;

export function suppressionView(row: SuppressionRow): Suppression {
  return {
    email: row.email,
    reason: row.reason as Suppression["reason"],
    message_id: row.message_id,
    detail: row.detail,
    created_at: new Date(row.created_at).toISOString(),
  };
}
