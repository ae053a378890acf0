import type { ChannelWords } from "../words-type.ts";

export const whatsapp = {
  label: "WhatsApp",
  inSentence: "WhatsApp",
  withArticle: "a WhatsApp",
  externalId: "Phone number ID",
  address: "phone number",
  provider: { name: "WhatsApp", reporter: "WhatsApp", server: "WhatsApp", api: "WhatsApp's API", report: "WhatsApp's" },
  read: { word: "read", sentence: "The recipient read it." },
  summary(step, quoted) {
    const w = step.whatsapp;
    if (w?.template && !w.fallback) return `Send WhatsApp: template ${w.template.name || "(choose one)"}`;
    if (w?.body) return `Send WhatsApp: ${quoted(w.body)}${w.fallback ? `, else template ${w.template?.name ?? ""}` : ""}`;
    if (w?.media_url) return `Send WhatsApp: ${w.media_type ?? "media"}`;
    return "Send WhatsApp: no message yet";
  },
  faults: [
    {
      field: /^whatsapp\.body$/,
      words: (d) => (/at most/.test(d) ? "Shorten the message: at most 4,096 characters." : "Write the message or add a media URL."),
    },
    { field: /^whatsapp\.media_url$/, words: () => "Enter a media URL that starts with https://." },
    { field: /^whatsapp\.media_type$/, words: () => "Choose the media type of the media URL." },
    { field: /^whatsapp\.fallback$/, words: () => "A fallback needs both a message and a template." },
    {
      field: /^whatsapp\.template$/,
      words: (d) => (/not both/.test(d) ? "Send either a template or a message, not both (or make the template the fallback)." : null),
    },
  ],
  color: "#1f9d55",
} satisfies ChannelWords;
