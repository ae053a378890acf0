// Meta's WhatsApp Cloud API error codes (D45), sorted once: `permanent` fails the message at
// once; `temporary` is retried with backoff for up to 24 hours (the rules of D39), and
// `slows` also slows the channel's pace. The docs page /docs/whatsapp renders this table.
// Source: Meta's "Error codes" reference for the Cloud API
// (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).

export type MetaErrorKind = "permanent" | "temporary";

export type MetaErrorCode = { code: number; title: string; kind: MetaErrorKind; slows?: boolean; meaning: string };

export const META_ERROR_CODES: readonly MetaErrorCode[] = [
  { code: 2, title: "API service", kind: "temporary", meaning: "Meta's service is temporarily down." },
  { code: 4, title: "API too many calls", kind: "temporary", meaning: "The app reached its API call rate limit." },
  { code: 80007, title: "Rate limit issues", kind: "temporary", meaning: "The WhatsApp Business account reached its rate limit." },
  {
    code: 130429,
    title: "Rate limit hit",
    kind: "temporary",
    slows: true,
    meaning: "The phone number's throughput was exceeded: the channel sends more slowly for a while.",
  },
  { code: 131000, title: "Something went wrong", kind: "temporary", meaning: "An unknown error on Meta's side." },
  { code: 131016, title: "Service unavailable", kind: "temporary", meaning: "A Meta service is temporarily unavailable." },
  {
    code: 131026,
    title: "Message undeliverable",
    kind: "permanent",
    meaning: "The number is not on WhatsApp, or cannot receive this message.",
  },
  {
    code: 131047,
    title: "Re-engagement message",
    kind: "permanent",
    meaning: "More than 24 hours passed since the contact last wrote: only a template can be sent.",
  },
  {
    code: 131048,
    title: "Spam rate limit hit",
    kind: "temporary",
    meaning: "Too many messages were reported or blocked: sending is limited.",
  },
  {
    code: 131049,
    title: "Meta chose not to deliver",
    kind: "permanent",
    meaning: "Meta did not deliver the message to keep engagement healthy.",
  },
  {
    code: 131050,
    title: "User stopped marketing messages",
    kind: "permanent",
    meaning: "The contact stopped marketing messages from you.",
  },
  { code: 131051, title: "Unsupported message type", kind: "permanent", meaning: "The message type is not supported." },
  { code: 131052, title: "Media download error", kind: "permanent", meaning: "The media could not be downloaded from its URL." },
  { code: 131053, title: "Media upload error", kind: "permanent", meaning: "The media could not be uploaded." },
  {
    code: 131056,
    title: "Pair rate limit hit",
    kind: "temporary",
    slows: true,
    meaning: "Too many messages to the same contact in a short time: the channel sends more slowly for a while.",
  },
  { code: 132000, title: "Template param count mismatch", kind: "permanent", meaning: "The parameters do not match the template's." },
  { code: 132001, title: "Template does not exist", kind: "permanent", meaning: "No such template in that language, or not approved." },
  { code: 132005, title: "Template hydrated text too long", kind: "permanent", meaning: "The filled template is too long." },
  {
    code: 132007,
    title: "Template format character policy violated",
    kind: "permanent",
    meaning: "A parameter breaks Meta's format rules.",
  },
  { code: 132012, title: "Template parameter format mismatch", kind: "permanent", meaning: "A parameter has the wrong format." },
  { code: 132015, title: "Template is paused", kind: "permanent", meaning: "The template was paused for low quality." },
  { code: 132016, title: "Template is disabled", kind: "permanent", meaning: "The template was disabled for low quality." },
  { code: 133004, title: "Server temporarily unavailable", kind: "temporary", meaning: "The Cloud API is temporarily unavailable." },
];

const BY_CODE = new Map(META_ERROR_CODES.map((e) => [e.code, e]));

export function metaErrorCode(code: number): MetaErrorCode | undefined {
  return BY_CODE.get(code);
}

/** Whether Meta's code means "try again later" (unknown codes are permanent). */
export function isTemporaryMetaCode(code: number): boolean {
  return BY_CODE.get(code)?.kind === "temporary";
}

/** Whether Meta's code asks the channel to send more slowly (130429, 131056). */
export function slowsChannel(code: number): boolean {
  return BY_CODE.get(code)?.slows === true;
}
