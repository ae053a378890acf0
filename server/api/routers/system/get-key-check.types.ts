import { z } from "zod";
import type { Meta } from "../../trpc.ts";

export const API_VERSION = "1.0.0";

export const getKeyCheckMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/",
    tags: ["Key check"],
    summary: "Check an API key",
    description:
      "Answers at `/api/v1` and `/api/v1/`. Needs no scope: any valid key may call it, and it reports the key's workspace and mode.",
    protect: true,
  },
};

export const ZGetKeyCheckResponse = z
  .object({
    ok: z.literal(true).describe("Always true for a valid key."),
    version: z.string().describe("The API description version, `1.0.0`.").meta({ example: API_VERSION }),
    workspace: z.string().describe("The workspace identifier (webhook events carry it as `namespace`).").meta({ example: "acme-k3j9x2" }),
    mode: z.enum(["test", "live"]).describe("The mode of the key in use."),
  })
  .meta({ id: "KeyCheck" });
