import { z } from "zod";
import { usageReport as report } from "../../../usage/usage-report.ts";
import { workspaceProcedure } from "../../trpc.ts";

/** Dashboard only: the usage page (month against limits, daily chart, test versus live). */
export const usageReport = workspaceProcedure.input(z.void()).query(({ ctx }) => report(ctx.db, ctx.caller.workspaceId));
