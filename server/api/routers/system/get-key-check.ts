import { z } from "zod";
import { workspaceProcedure } from "../../trpc.ts";
import { API_VERSION, getKeyCheckMeta, ZGetKeyCheckResponse } from "./get-key-check.types.ts";

export const getKeyCheck = workspaceProcedure
  .meta(getKeyCheckMeta)
  .input(z.void())
  .output(ZGetKeyCheckResponse)
  .query(({ ctx }) => ({ ok: true as const, version: API_VERSION, workspace: ctx.caller.workspaceId, mode: ctx.caller.mode }));
