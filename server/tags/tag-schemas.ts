import { z } from "zod";

// Tag rules of D3: name 1 to 64 characters after trimming; color `#rrggbb` (case-insensitive
// on input, stored lower-case) or null.
export const ZTagName = z.string().trim().min(1, "must not be empty").max(64, "must be at most 64 characters");
export const ZTagColor = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a hex color #rrggbb")
  .transform((c) => c.toLowerCase());

export const ZCreateTagRequest = z.strictObject({
  name: ZTagName.describe("1 to 64 characters; unique per workspace, compared case-insensitively.").meta({ example: "VIP" }),
  color: ZTagColor.nullish().describe("`#rrggbb` or null.").meta({ example: "#ff8800" }),
});

export const ZTag = z
  .object({
    id: z.string().describe("Prefix `tag_`.").meta({ example: "tag_mhw3k2a0Xf3kQ9vR2mZp7Lq1" }),
    name: z.string(),
    color: z.string().nullable().describe("`#rrggbb`, lower-case, or null."),
    created_at: z.string().describe("ISO 8601 timestamp."),
  })
  .meta({ id: "Tag" });

export type Tag = z.infer<typeof ZTag>;

export function tagView(row: { id: string; name: string; color: string | null; createdAt: Date }): Tag {
  return { id: row.id, name: row.name, color: row.color, created_at: row.createdAt.toISOString() };
}
