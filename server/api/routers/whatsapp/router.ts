import { router } from "../../trpc.ts";
import { conversation } from "./conversation.ts";
import { listTemplates } from "./list-templates.ts";
import { syncTemplates } from "./sync-templates.ts";

export const whatsappRouter = router({ templates: listTemplates, syncTemplates, conversation });
