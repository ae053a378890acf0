import { z } from "zod";
import type { Prisma } from "../generated/prisma/client.ts";
import { ChannelType } from "../generated/prisma/enums.ts";
import { ZTimeZone } from "../lib/time-zones.ts";

/** D38: the contact's opt-out of a channel type: `opt_out_<type>`, in the contract and as the table's column. */
export type OptOutColumn = `opt_out_${ChannelType}`;

/** Every opt-out column, in the schema's order of `ChannelType` (a statement's column list). */
export const OPT_OUT_COLUMNS = Object.values(ChannelType).map((type): OptOutColumn => `opt_out_${type}`);

/** One value a channel type, under its opt-out column (`opt_out_<type>`). */
export function optOuts<T>(value: (column: OptOutColumn, type: ChannelType) => T): Record<OptOutColumn, T> {
  const entries = Object.values(ChannelType).map((type) => [`opt_out_${type}`, value(`opt_out_${type}`, type)]);
  return Object.fromEntries(entries) as Record<OptOutColumn, T>;
}

/** The same under Prisma's model's names of the columns (`optOut<Type>`). */
export function prismaOptOuts<T>(value: (column: OptOutColumn) => T) {
  return Object.fromEntries(Object.values(ChannelType).map((type) => [optOutField(type), value(`opt_out_${type}`)])) as {
    [K in ChannelType as `optOut${Capitalize<K>}`]: T;
  };
}
const optOutField = <K extends ChannelType>(type: K) => `optOut${type[0]!.toUpperCase()}${type.slice(1)}` as `optOut${Capitalize<K>}`;

/** A custom-field value: its field's type decides which (D14, checked in field-values.ts). */
const ZFieldValue = z.union([z.string(), z.number(), z.boolean()]).describe("Text, a number, `true`/`false`, or a date `YYYY-MM-DD`.");

export const ZUpsertContactRequest = z
  .strictObject({
    phone: z
      .string()
      .max(64)
      .optional()
      .describe("Any common notation; stored in E.164. The contact is matched by phone first.")
      .meta({ example: "+55 11 98765-4321" }),
    email: z.string().max(320).optional().describe("Matched when no phone is given.").meta({ example: "ana@example.com" }),
    whatsapp_user_id: z
      .string()
      .max(256)
      .optional()
      .describe("The contact's WhatsApp user id, as WhatsApp's webhooks carry it. Matched before the phone.")
      .meta({ example: "US.13491208655302741918" }),
    whatsapp_username: z
      .string()
      .trim()
      .max(64, "must be at most 64 characters")
      .nullable()
      .optional()
      .describe("The contact's WhatsApp username; null clears it.")
      .meta({ example: "@realsheenanelson" }),
    name: z
      .string()
      .trim()
      .max(200, "must be at most 200 characters")
      .nullable()
      .optional()
      .describe("null clears it.")
      .meta({ example: "Ana" }),
    tags: z
      .array(z.string())
      .max(100)
      .optional()
      .describe("Tag ids; when given, replaces the contact's tags. Not with `add_tags` or `remove_tags`."),
    add_tags: z.array(z.string()).max(100).optional().describe("Tag ids to add to the contact's tags."),
    remove_tags: z
      .array(z.string())
      .max(100)
      .optional()
      .describe("Tag ids to take off the contact's tags; one it does not have is ignored."),
    fields: z
      .record(z.string(), ZFieldValue.nullable())
      .optional()
      .describe("Custom-field values by key, merged key by key; `null` removes a key.")
      .meta({ example: { plan: "gold" } }),
    ...optOuts(() => z.boolean().optional()),
    time_zone: ZTimeZone.nullable().optional().describe("The contact's IANA time zone, for a journey's quiet hours; null clears it."),
  })
  .meta({ examples: [{ phone: "+55 11 98765-4321", name: "Ana", fields: { plan: "gold" } }] });

export type UpsertContactRequest = z.output<typeof ZUpsertContactRequest>;

export const ZContact = z
  .object({
    id: z.string().describe("Prefix `ct_`."),
    phone: z.string().nullable().describe("E.164."),
    email: z.string().nullable(),
    whatsapp_user_id: z
      .string()
      .nullable()
      .describe(
        "The contact's WhatsApp user id: two letters, a dot, then up to 128 letters and digits. WhatsApp identifies a user by it even when it does not share the phone number; a contact without a phone is messaged by it.",
      )
      .meta({ example: "US.13491208655302741918" }),
    whatsapp_username: z
      .string()
      .nullable()
      .describe("The contact's WhatsApp username, when WhatsApp has told it; else null.")
      .meta({ example: "@realsheenanelson" }),
    name: z.string().nullable(),
    tags: z.array(z.string()).describe("Tag ids (`tag_…`)."),
    fields: z.record(z.string(), ZFieldValue).describe("Custom-field values by key."),
    ...optOuts(() => z.boolean()),
    whatsapp_marketing_opt_out: z
      .boolean()
      .describe("True once WhatsApp said the contact stopped marketing messages from you: marketing templates to it are refused."),
    whatsapp_window_expires_at: z
      .string()
      .nullable()
      .describe(
        "When the contact's 24-hour WhatsApp window closes: the time of its latest WhatsApp message to you plus 24 hours. Null when it never wrote. Outside the window only a template can be sent.",
      ),
    time_zone: z
      .string()
      .nullable()
      .describe(
        "The contact's IANA time zone, or null: a journey's quiet hours then use the zone of its phone number's country when that country has one zone, else the workspace's.",
      )
      .meta({ example: "America/Sao_Paulo" }),
    created_at: z.string().describe("ISO 8601 timestamp."),
    updated_at: z.string().describe("ISO 8601 timestamp."),
  })
  .meta({ id: "Contact" });

export type Contact = z.infer<typeof ZContact>;

export type ContactRow = Prisma.ContactGetPayload<{ select: typeof CONTACT_SELECT }>;

export const CONTACT_SELECT = {
  id: true,
  phone: true,
  email: true,
  whatsappUserId: true,
  whatsappUsername: true,
  name: true,
  fields: true,
  ...prismaOptOuts(() => true as const),
  whatsappMarketingOptOut: true,
  whatsappWindowExpiresAt: true,
  timeZone: true,
  createdAt: true,
  updatedAt: true,
  tags: { select: { tagId: true }, orderBy: { tagId: "asc" as const } },
};

export function contactView(row: ContactRow): Contact {
  return {
    id: row.id,
    phone: row.phone,
    email: row.email,
    whatsapp_user_id: row.whatsappUserId,
    whatsapp_username: row.whatsappUsername,
    name: row.name,
    tags: row.tags.map((t) => t.tagId),
    fields: (row.fields ?? {}) as Contact["fields"],
    ...optOuts((_, type) => row[optOutField(type)]),
    whatsapp_marketing_opt_out: row.whatsappMarketingOptOut,
    whatsapp_window_expires_at: row.whatsappWindowExpiresAt?.toISOString() ?? null,
    time_zone: row.timeZone,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
