import { router } from "../../trpc.ts";
import { getKeyCheck } from "./get-key-check.ts";

export const systemRouter = router({ keyCheck: getKeyCheck });
