// The examples of /docs/getting-started#volume (batches, scheduled sends, cancel), shown on the
// page as written here and sent as written by e2e/api/batch-send.test.ts.

/** A batch of two messages, one per channel. */
export const BATCH_EXAMPLE = {
  messages: [
    {
      channel: "whatsapp",
      to: { phone: "+5511987654321" },
      whatsapp: { body: "Your order {{order}} shipped." },
      variables: { order: "1042" },
    },
    { channel: "email", to: { email: "ana@example.com" }, email: { subject: "Your order shipped", html: "<p>It is on its way.</p>" } },
  ],
} as const;

/** A reminder for tomorrow at 09:00 UTC, as of `now` (the page is rendered when read, so it can be pasted as shown). */
export function scheduledExample(now = new Date()) {
  const tomorrow = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1, 9));
  return {
    channel: "email",
    to: { email: "ana@example.com" },
    email: { subject: "See you tomorrow", html: "<p>Your appointment is tomorrow at 9:00.</p>" },
    send_at: tomorrow.toISOString().replace(".000Z", "Z"),
  } as const;
}
