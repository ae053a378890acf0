import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { SUPPRESSION_REASONS, ZSuppression } from "../../../suppressions/suppression-schemas.ts";
import type { Meta } from "../../trpc.ts";

const MODE = "A key sees the list of its mode: a test key's simulated bounces never reach the live list.";

export const listSuppressionsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/suppressions",
    tags: ["Suppressions"],
    summary: "List suppressed addresses",
    description: `E-mail addresses that e-mail is not sent to: hard bounces, spam complaints and the ones you added. Ordered by \`created_at\`; \`after\` is the last address of the previous page. ${MODE}`,
    protect: true,
  },
  scope: "contacts:read",
};

export const ZListSuppressionsRequest = ZPageQuery.extend({
  after: z.string().min(1).optional().describe("The last address of the previous page: this page starts after it."),
  reason: z.enum(SUPPRESSION_REASONS).optional().describe("Only the entries of this reason."),
});
export const ZListSuppressionsResponse = z.array(ZSuppression);

export const addSuppressionMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/suppressions",
    tags: ["Suppressions"],
    summary: "Suppress an address",
    description: `Live e-mail to the address is then refused (\`409 recipient_suppressed\`) and journeys skip it. Answers \`201\` with the new entry, or \`200\` with the existing one when the address is already suppressed. ${MODE}`,
    protect: true,
  },
  scope: "contacts:write",
  idempotent: true,
  successStatus: 201,
  alsoAnswers: { status: 200, description: "OK: the address was already suppressed; the existing entry, unchanged." },
  errors: ["invalid_email"],
};

export const ZAddSuppressionRequest = z
  .strictObject({
    email: z.string().max(320).describe("The address (matched in any case).").meta({ example: "ana@example.com" }),
    reason: z.string().optional().describe("`manual`, the default and the only value you can give."),
  })
  .meta({ examples: [{ email: "ana@example.com", reason: "manual" }] });

export const removeSuppressionMeta: Meta = {
  openapi: {
    method: "DELETE",
    path: "/suppressions/{email}",
    tags: ["Suppressions"],
    summary: "Remove a suppressed address",
    description: `E-mail to the address is sent again. Remove a bounced address only when you know it works again: mail to dead addresses and to people who complained harms your sending reputation. Answers the removed entry; an address not suppressed is a \`404\`. ${MODE}`,
    protect: true,
  },
  scope: "contacts:write",
};

export const ZRemoveSuppressionRequest = z.strictObject({ email: z.string().max(320).describe("The address, URL-encoded.") });
