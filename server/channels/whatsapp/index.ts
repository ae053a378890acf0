import type { Contact } from "../../contacts/contact-schemas.ts";
import type { Mode } from "../../keys/scopes.ts";
import { conflict, type AppError } from "../../lib/errors.ts";
import type { Channel, Fill } from "../channel.ts";

/** D43: the one test recipient whose 24-hour WhatsApp window is always closed. */
export const WINDOW_CLOSED_RECIPIENT = "+15550100004";

/** D43: whether the contact's 24-hour window is open now (test keys: always, but for the reserved recipient). */
export function windowOpen(
  mode: Mode,
  contact: Pick<Contact, "whatsapp_window_expires_at">,
  address: string,
  now: Date = new Date(),
): boolean {
  if (mode === "test") return address !== WINDOW_CLOSED_RECIPIENT;
  return contact.whatsapp_window_expires_at !== null && new Date(contact.whatsapp_window_expires_at).getTime() > now.getTime();
}

/** D43: free-form content (`param`: `whatsapp.body` or `whatsapp.media_url`) outside the window. */
export function windowClosedError(mode: Mode, contact: Pick<Contact, "whatsapp_window_expires_at">, param: string): AppError {
  const expired = contact.whatsapp_window_expires_at;
  return conflict(
    "whatsapp_window_closed",
    `${expired && mode === "live" ? `The contact's 24-hour WhatsApp window closed at ${expired}` : "The contact's 24-hour WhatsApp window never opened: the contact has not written to you on WhatsApp"}. Outside the window only a template can be sent: give whatsapp.template.`,
    param,
  );
}

/** The free-form fields of a send request's `whatsapp` object. */
type WhatsAppFields = { body?: string; media_url?: string; media_type?: string };

/** D48: the request's limit (D16) applies to the rendered body too. */
const BODY_LIMIT = { param: "whatsapp.body", max: 4096, unit: "characters" } as const;

export const whatsapp = {
  type: "whatsapp",
  label: "WhatsApp",
  // D88: the contact's phone, else its WhatsApp user id.
  addressOf: (contact) => contact.phone ?? contact.whatsapp_user_id,
  missingAddress: { what: "phone number", param: "to.phone" },
  optedOut: (contact) => contact.opt_out_whatsapp,
  suppressible: false,
  window: { open: windowOpen, closedError: windowClosedError },
  render(w: WhatsAppFields | undefined, fill: Fill) {
    return {
      ...(w?.body !== undefined ? { body: fill(w.body, { limit: BODY_LIMIT }) } : {}),
      ...(w?.media_url ? { media_url: w.media_url, media_type: w.media_type } : {}),
    };
  },
  callbackPath: "/api/providers/whatsapp",
} satisfies Channel;
