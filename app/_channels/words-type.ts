import type { SendStep } from "@/server/flows/flow-schemas.ts";
import type { Usage } from "@/server/usage/get-usage.ts";

// The shape of a channel's dashboard words (app/_channels/<type>/words.ts), apart from their
// registry (./channel-words.ts), which imports every channel's words: each words file takes its
// type from here, not from the registry, so the two do not import each other.

/** A fault of a send step's content (its field's path under the step, such as `sms.body`) in words; null: the server's own. */
export type FaultWords = { field: RegExp; words: (detail: string) => string | null };

/** A count of the month's usage (`GET /usage`), such as the sms's `sms_segments`. */
export type UsageCount = { [K in keyof Usage]-?: Usage[K] extends number ? K : never }[keyof Usage];

export interface ChannelWords {
  /** As a label (a column, a select's option, a heading). */
  label: string;
  /** Inside a sentence ("opted out of e-mail"). */
  inSentence: string;
  /** With its article, as it is read aloud ("an SMS"). */
  withArticle: string;
  /** What the channel's `external_id` is (the channel card). */
  externalId: string;
  /** What a message of the channel goes to, on a contact ("phone number"). */
  address: string;
  /** Who answers for the channel in a message's timeline. */
  provider: {
    /** Who takes a send ("as if Twilio had taken it"). */
    name: string;
    /** Who reports a status, as a sentence's subject. */
    reporter: string;
    /** Who answers a send, as a sentence's subject. */
    server: string;
    /** Whose API refused a send, as a sentence's subject. */
    api: string;
    /** Whose report ("waits for Twilio's report"). */
    report: string;
  };
  /** What a message's `read` is: "read", or an e-mail's "opened", and its sentence in the timeline. */
  read: { word: string; sentence: string };
  /** A send step of this channel in a few words ("Send SMS: “Your code…”"); `quoted` shortens and quotes a text. */
  summary(step: SendStep, quoted: (text: string) => string): string;
  /** The journey editor's words for faults of the step's content (`whatsapp.body`). */
  faults: readonly FaultWords[];
  /** Its colour in the usage's bars and charts and on its channel's badge. */
  color: string;
  /** The counts it adds to the month's usage (D97: the sms's `sms_segments`), each in a sentence with its formatted count; absent: none. */
  usage?: Partial<Record<UsageCount, (count: string) => string>>;
}
