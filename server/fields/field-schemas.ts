import { z } from "zod";

// D4: key `^[a-z][a-z0-9_]{0,63}$`, not a built-in variable; name 1 to 100 characters.
export const RESERVED_KEYS = ["name", "phone", "email", "contact_id"] as const;
export const FIELD_TYPES = ["text", "number", "date", "boolean"] as const;

export const ZCreateFieldRequest = z.strictObject({
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").meta({ example: "Plan" }),
  key: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, "must start with a-z and hold only a-z, 0-9 and _, at most 64 characters")
    .refine((k) => !(RESERVED_KEYS as readonly string[]).includes(k), "is a built-in variable (name, phone, email, contact_id)")
    .describe("Becomes the placeholder `{{key}}`.")
    .meta({ example: "plan" }),
  type: z.enum(FIELD_TYPES).default("text").describe("`text`, `number`, `date` (`YYYY-MM-DD`) or `boolean`; default `text`."),
});

export const ZCustomField = z
  .object({
    id: z.string().describe("Prefix `field_`."),
    name: z.string(),
    key: z.string(),
    type: z.enum(FIELD_TYPES),
    created_at: z.string().describe("ISO 8601 timestamp."),
  })
  .meta({ id: "CustomField" });

export type CustomField = z.infer<typeof ZCustomField>;

export function fieldView(row: {
  id: string;
  name: string;
  key: string;
  type: (typeof FIELD_TYPES)[number];
  createdAt: Date;
}): CustomField {
  return { id: row.id, name: row.name, key: row.key, type: row.type, created_at: row.createdAt.toISOString() };
}
