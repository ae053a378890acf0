import { z } from "zod";

// The fields every channel's connect request is built of (server/channels/<type>/contract.ts);
// the channel modules' one import beside channels/channel.ts, free of Node's modules as the
// dashboard's bundles reach it through the channel registry.

export const ZHttpUrl = z
  .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
  .max(2048)
  .transform((u) => u.replace(/\/+$/, ""));

export const ZRate = z.number().int().min(1).max(1000).optional().describe("Provider calls per second at most (the pipeline paces sends).");

export const ZName = z.string().trim().min(1).max(100).optional();

export const ZSecret = (what: string) => z.string().trim().min(1, `${what} must not be empty`).max(4096);
