import { getRunWithHistory } from "../../../flows/read-runs.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { getRunMeta, ZGetRunRequest, ZGetRunResponse } from "./get-run.types.ts";

export const getRun = workspaceProcedure
  .meta(getRunMeta)
  .input(ZGetRunRequest)
  .output(ZGetRunResponse)
  .query(({ ctx, input }) => getRunWithHistory(ctx.db, ctx.caller, input.run_id));
