import { z } from "zod";
import { getUsage as usage, ZUsage } from "../../../usage/get-usage.ts";
import { workspaceProcedure, type Meta } from "../../trpc.ts";

const getUsageMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/usage",
    tags: ["Usage"],
    summary: "Get this month's usage",
    description: "Live messages accepted this calendar month (UTC), by channel, against the limits. Needs no scope.",
    protect: true,
  },
};

export const getUsage = workspaceProcedure
  .meta(getUsageMeta)
  .input(z.void())
  .output(ZUsage)
  .query(({ ctx }) => usage(ctx.db, ctx.caller.workspaceId));
