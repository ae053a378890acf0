import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { TEMPLATE_STATUSES, ZTemplate } from "../../../whatsapp/template-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const listTemplatesMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/whatsapp/templates",
    tags: ["WhatsApp"],
    summary: "List WhatsApp templates",
    description:
      "The message templates of the workspace's WhatsApp channels, as last synced from Meta (when a channel is connected, every 15 minutes, " +
      'and when Meta reports a status change), ordered by `created_at` then `id`; a `Link` header with `rel="next"` when more exist. ' +
      "Test and live keys see the same templates.",
    protect: true,
  },
  scope: "messages:read",
};

export const ZListTemplatesRequest = ZPageQuery.extend({
  channel_id: z.string().max(64).optional().describe("Only the templates of this WhatsApp channel. Prefix `ch_`."),
  status: z.enum(TEMPLATE_STATUSES).optional().describe("Only templates in this status."),
});

export const ZListTemplatesResponse = z.array(ZTemplate);
