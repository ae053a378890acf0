// Meta's WhatsApp Cloud API error codes (D45, D90), sorted once: `temporary` means the Cloud API
// refused the request (nothing was sent), so it is retried with backoff for up to 24 hours (the
// rules of D39) and is not a second call (D47); every other code is `permanent` and fails the
// message at once. `slows` also slows the channel's pace; `optsOut` records the contact's
// marketing opt-out; `pauses` pauses the channel with that reason. The docs page /docs/whatsapp
// renders this table.
// Source: Meta's "Error codes" reference for the Cloud API
// (developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes).

export type MetaErrorKind = "permanent" | "temporary";

/** D90: why a refusal paused its channel (`paused_reason`). */
export type PauseReason = "payment" | "policy";

export type MetaErrorCode = {
  code: number;
  title: string;
  kind: MetaErrorKind;
  slows?: boolean;
  optsOut?: boolean;
  pauses?: PauseReason;
  meaning: string;
};

export const META_ERROR_CODES: readonly MetaErrorCode[] = [
  { code: 2, title: "API service", kind: "permanent", meaning: "Meta's service is temporarily down." },
  { code: 4, title: "API too many calls", kind: "permanent", meaning: "The app reached its API call rate limit." },
  {
    code: 368,
    title: "Temporarily blocked for policy violations",
    kind: "permanent",
    pauses: "policy",
    meaning: "Meta blocked the number for a policy violation: the channel is paused until you resume it.",
  },
  { code: 80007, title: "Rate limit issues", kind: "permanent", meaning: "The WhatsApp Business account reached its rate limit." },
  {
    code: 130429,
    title: "Rate limit hit",
    kind: "temporary",
    slows: true,
    meaning: "The phone number's throughput was exceeded: the channel sends more slowly for a while.",
  },
  { code: 131000, title: "Something went wrong", kind: "permanent", meaning: "An unknown error on Meta's side." },
  { code: 131016, title: "Service unavailable", kind: "permanent", meaning: "A Meta service is temporarily unavailable." },
  {
    code: 131026,
    title: "Message undeliverable",
    kind: "permanent",
    meaning: "The number is not on WhatsApp, or cannot receive this message.",
  },
  {
    code: 131042,
    title: "Business eligibility payment issue",
    kind: "permanent",
    pauses: "payment",
    meaning: "A problem with the business account's payment method: the channel is paused until you resume it.",
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
    kind: "permanent",
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
    optsOut: true,
    meaning: "The contact stopped marketing messages from you: later marketing templates to it are refused.",
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
  {
    code: 131057,
    title: "Account in maintenance mode",
    kind: "temporary",
    meaning: "The business account is in maintenance, such as during a throughput upgrade: the send is tried again later.",
  },
  {
    code: 131062,
    title: "Business-scoped user id not supported",
    kind: "permanent",
    meaning: "This message cannot be sent to a WhatsApp user id (some authentication templates): it needs the contact's phone number.",
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
  { code: 133004, title: "Server temporarily unavailable", kind: "permanent", meaning: "The Cloud API is temporarily unavailable." },
];

const BY_CODE = new Map(META_ERROR_CODES.map((e) => [e.code, e]));

export function metaErrorCode(code: number): MetaErrorCode | undefined {
  return BY_CODE.get(code);
}

/** Whether Meta's code means "the request was refused, try again later" (D90; unknown codes are permanent). */
export function isTemporaryMetaCode(code: number): boolean {
  return BY_CODE.get(code)?.kind === "temporary";
}

/** Whether Meta's code asks the channel to send more slowly (130429, 131056). */
export function slowsChannel(code: number): boolean {
  return BY_CODE.get(code)?.slows === true;
}

/**
 * A Meta error code as a message's `error_code` (D45): its number as text, but for the codes
 * the contract names otherwise (D88: `whatsapp_131062`).
 */
export function metaErrorCodeText(code: number): string {
  return code === 131062 ? "whatsapp_131062" : String(code);
}

/** D90: whether Meta's code means the contact stopped marketing messages (131050). */
export function optsOutOfMarketing(code: number): boolean {
  return BY_CODE.get(code)?.optsOut === true;
}

/** D90: the pause reason of a code that stops every further send on the channel (131042, 368). */
export function pauseReason(code: number): PauseReason | null {
  return BY_CODE.get(code)?.pauses ?? null;
}
