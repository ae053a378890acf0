import { inboundTextWebhook, postWebhook } from "./fake-whatsapp.ts";

/**
 * Opens a contact's 24-hour WhatsApp window the real way (D43, D44): a signed inbound message
 * from that number, posted to the provider callback as the Cloud API does. Live free-form
 * sends to the number are accepted for the next 24 hours.
 */
export async function openWhatsAppWindow(
  baseUrl: string,
  channel: { phoneNumberId: string; appSecret: string },
  phone: string,
): Promise<void> {
  const res = await postWebhook(
    `${baseUrl}/api/providers/whatsapp`,
    inboundTextWebhook(channel.phoneNumberId, phone.replace(/^\+/, ""), "Hi"),
    channel.appSecret,
  );
  if (res.status !== 200) throw new Error(`opening the WhatsApp window of ${phone}: the callback answered ${res.status}`);
}

/**
 * A template that needs no parameters, for tests whose sends go to new contacts (window
 * closed) and are about something else: list it on the fake Cloud API under `waba` before the
 * channel is connected with `--waba-id waba`, then send `whatsapp: HELLO`.
 */
export const HELLO_TEMPLATE = {
  name: "hello",
  language: "en_US",
  status: "APPROVED" as const,
  category: "UTILITY" as const,
  components: [{ type: "BODY", text: "Hello from the shop." }],
};
export const HELLO = { template: { name: HELLO_TEMPLATE.name, language: HELLO_TEMPLATE.language } };
