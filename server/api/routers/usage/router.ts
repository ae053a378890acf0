import { router } from "../../trpc.ts";
import { getUsage } from "./get-usage.ts";
import { usageReport } from "./usage-report.ts";

export const usageRouter = router({ get: getUsage, report: usageReport });
