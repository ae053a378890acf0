import type { ChannelWords } from "../words-type.ts";

export const email = {
  label: "E-mail",
  inSentence: "e-mail",
  withArticle: "an e-mail",
  externalId: "From address",
  address: "e-mail address",
  provider: {
    name: "the mail server",
    reporter: "The mail provider",
    server: "The mail server",
    api: "The mail server",
    report: "the provider's",
  },
  read: { word: "opened", sentence: "The recipient opened it (its tracking image loaded)." },
  summary: (step, quoted) => (step.email?.subject ? `Send e-mail: ${quoted(step.email.subject)}` : "Send e-mail"),
  faults: [
    { field: /^email\.html$/, words: () => "Write the e-mail's content." },
    { field: /^email\.subject$/, words: () => "Shorten the subject: at most 998 characters." },
  ],
  color: "#2f6fdf",
} satisfies ChannelWords;
