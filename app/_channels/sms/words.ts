import type { ChannelWords } from "../words-type.ts";

export const sms = {
  label: "SMS",
  inSentence: "SMS",
  withArticle: "an SMS",
  externalId: "Account SID",
  address: "phone number",
  provider: { name: "Twilio", reporter: "Twilio", server: "Twilio", api: "Twilio's API", report: "Twilio's" },
  read: { word: "read", sentence: "The recipient read it." },
  summary: (step, quoted) => (step.sms?.body ? `Send SMS: ${quoted(step.sms.body)}` : "Send SMS: no message yet"),
  faults: [{ field: /^sms\.body$/, words: (d) => (/at most/.test(d) ? "Shorten the SMS: at most 1,600 characters." : "Write the SMS.") }],
  color: "#9b4dca",
  usage: { sms_segments: (count) => `SMS segments this month: ${count}, what carriers bill (an SMS is one or more segments).` },
} satisfies ChannelWords;
