import { channelsRouter } from "./routers/channels/router.ts";
import { contactsRouter } from "./routers/contacts/router.ts";
import { fieldsRouter } from "./routers/fields/router.ts";
import { flowsRouter } from "./routers/flows/router.ts";
import { eventsRouter } from "./routers/events/router.ts";
import { runsRouter } from "./routers/runs/router.ts";
import { messagesRouter } from "./routers/messages/router.ts";
import { overviewRouter } from "./routers/overview/router.ts";
import { settingsRouter } from "./routers/settings/router.ts";
import { usageRouter } from "./routers/usage/router.ts";
import { keysRouter } from "./routers/keys/router.ts";
import { tagsRouter } from "./routers/tags/router.ts";
import { systemRouter } from "./routers/system/router.ts";
import { webhooksRouter } from "./routers/webhooks/router.ts";
import { webhookEndpointsRouter } from "./routers/webhook-endpoints/router.ts";
import { workspacesRouter } from "./routers/workspaces/router.ts";
import { whatsappRouter } from "./routers/whatsapp/router.ts";
import { teamRouter } from "./routers/team/router.ts";
import { auditRouter } from "./routers/audit/router.ts";
import { searchRouter } from "./routers/search/router.ts";
import { suppressionsRouter } from "./routers/suppressions/router.ts";
import { router } from "./trpc.ts";

// One router per resource, shared by the dashboard (/api/trpc) and the public REST facade
// (/api/v1, procedures with `meta.openapi` only).
export const appRouter = router({
  system: systemRouter,
  keys: keysRouter,
  tags: tagsRouter,
  fields: fieldsRouter,
  contacts: contactsRouter,
  messages: messagesRouter,
  settings: settingsRouter,
  usage: usageRouter,
  overview: overviewRouter,
  workspaces: workspacesRouter,
  channels: channelsRouter,
  webhooks: webhooksRouter,
  webhookEndpoints: webhookEndpointsRouter,
  flows: flowsRouter,
  runs: runsRouter,
  events: eventsRouter,
  whatsapp: whatsappRouter,
  team: teamRouter,
  audit: auditRouter,
  search: searchRouter,
  suppressions: suppressionsRouter,
});

export type AppRouter = typeof appRouter;
