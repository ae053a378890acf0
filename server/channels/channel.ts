import type { z } from "zod";
import type { Contact, OptOutColumn } from "../contacts/contact-schemas.ts";
import type { ContactFlag } from "../contacts/contact-flags.ts";
import type { ChannelType } from "../generated/prisma/enums.ts";
import type { Mode } from "../keys/scopes.ts";
import type { AppError } from "../lib/errors.ts";
import type { Content, ProviderClient } from "../providers/provider.ts";
import type { Database } from "../db/client.ts";
import type { TemplateRequest } from "../whatsapp/check-template-send.ts";

export type { ChannelType, Mode };

// Issue 49: a channel is one module behind this interface, registered by type in
// `registry.ts`, so the rules that differ between channels live in the channel's module and
// nothing above branches on a channel's name. Only the parts the channels really differ in are
// here; what every channel shares (placeholders, pacing, the outbox) stays where it is.

/** The contact's columns a channel reads to address it and to know whether it opted out. */
export type Addressed = Pick<Contact, "phone" | "email" | "whatsapp_user_id" | OptOutColumn>;

/** The contact's column a channel with a reply window (WhatsApp, D43) reads. */
export type WindowContact = Pick<Contact, "whatsapp_window_expires_at">;

/** A contact's flags that a provider's final refusal of a send may set (D90, D96). */
export type RefusalFlag = ContactFlag;

/** D90, D96: what a provider's final refusal (its error code) changes beside failing the message. */
export type RefusalEffect = { pause: "payment" | "policy" } | { flag: RefusalFlag };

/** D97: an sms message's encoding and segment count, of its rendered body. */
export type SegmentsView = { encoding: "GSM-7" | "UCS-2"; segments: number };

/** A limit in UTF-16 characters (as the request's own limits count) or in UTF-8 bytes (D48). */
export type RenderLimit = { param: string; max: number; unit: "characters" | "bytes" };

/** Fills the placeholders of one text of the content (D17), refusing a rendered text over `limit` (D48). */
export type Fill = (text: string, opts?: { limit?: RenderLimit; html?: boolean }) => string;

/** Reports one problem of a request's content at `path` (zod's refinement issue). */
export type ContentIssue = (path: string[], message: string) => void;

/** What the dashboard's "send a test message to…" was given (`text` or, on a channel with templates, `template`). */
export type TestMessageInput = { to: string; text?: string; template?: TemplateRequest };

/** What connecting a channel writes of its row, from its checked connect request (the secrets sealed by the caller). */
export type ConnectedRow = {
  name: string;
  externalId: string;
  settings: Record<string, string>;
  secrets: Record<string, string>;
  /** E-mail: the bearer token of the channel's events endpoint, answered once (`events_token`). */
  eventsToken?: string;
  /** D41: the channel's templates are synced at once and then every 15 minutes. */
  syncsTemplates?: boolean;
};

/**
 * What connecting needs of the server, passed in: a channel module stays free of Node's
 * modules, as the dashboard's bundles reach it through the registry.
 */
export type ConnectKit = {
  /** The new channel's id. */
  id: string;
  /** D34: refuses a provider host on loopback or private addresses (unless ALLOW_PRIVATE_WEBHOOKS=1). */
  assertAllowedHost(host: string, param: string): Promise<void>;
  /** 40 random base62 characters, for a token. */
  randomToken(): string;
  /** D74: a DKIM key: the given PEM's, checked, or a new one. */
  dkimKey(privateKeyPem: string | undefined): Promise<{ privateKeyPem: string; publicKey: string }>;
};

/** An option of `svc channel connect` for this type: `--<flag> <arg>`, the request's field it fills (`param`), its help. */
export type CliOption = { flag: string; arg: string; param: string; help: string };

/** The option values `svc channel connect` was given, by flag (without `--`). */
export type CliValues = {
  required(flag: string): string;
  optional(flag: string): string | undefined;
  /** The contents of the file the option names. */
  file(flag: string): string;
  /** Stops the command as bad usage (exit status 2). */
  fail(message: string): never;
};

/** What `svc channel connect` says of a channel it connected. */
export type CliConnected = {
  channelId: string;
  workspace: string;
  externalId: string;
  settings: Record<string, string>;
  eventsToken?: string;
  callbackUrl: string;
  appUrl: string;
};

export interface Channel {
  type: ChannelType;
  /** The channel's name in sentences and in the OpenAPI document's schema names. */
  label: string;
  /**
   * The contract's object of this channel in a send request (`POST /messages`): the key named
   * after the type (`whatsapp`, `email`, `sms`). `checkContent` adds what the schema cannot say.
   */
  content: z.ZodType;
  /** A flow send step's object of this channel (D37): `content`, with what only a step has (WhatsApp's `fallback`, D43). */
  stepContent: z.ZodType;
  /** The Message's fields this channel adds (WhatsApp's `pricing`, the sms's `sms`), each a column of the message; `{}`: none. */
  messageFields: z.ZodRawShape;
  /** The address a message goes to, or null when the contact has none on this channel. */
  addressOf(contact: Pick<Contact, "phone" | "email" | "whatsapp_user_id">): string | null;
  /** D16: how a missing address is named: words for the contact's missing field, and the request's `param`. */
  missingAddress: { what: string; param: string };
  /** D38: whether the contact opted out of this channel. */
  optedOut(contact: Pick<Contact, OptOutColumn>): boolean;
  /** D72: live sends to an address on the workspace's suppression list are refused. */
  suppressible: boolean;
  /** D43: when free-form content may go (WhatsApp's 24-hour window); absent: always. */
  window?: {
    open(mode: Mode, contact: WindowContact, address: string, now?: Date): boolean;
    closedError(mode: Mode, contact: WindowContact, param: string): AppError;
  };
  /** The month's usage (`GET /usage`): how its count of live messages is described, and the values of its `usageFields`. */
  usage: {
    accepted: string;
    /** `usageFields`' values from the month's live usage counters (every channel's). */
    of?(counters: { segments: number }[]): object;
  };
  /** The usage's fields this channel adds after every channel's count (the sms's `sms_segments`, D97); `{}`: none. */
  usageFields: z.ZodRawShape;
  /** D71: the channel's object in a contact's reachability, beside `reachable` and `reasons`. */
  reach: {
    /** What one message of the channel is called ("an SMS"). */
    what: string;
    /** The fields the channel adds (WhatsApp's window); `{}`: none. */
    fields: z.ZodRawShape;
    /** Those fields' values for the contact at `address` (null: none), now. */
    of?(mode: Mode, contact: WindowContact, address: string | null, now: Date): object;
  };
  /** Connecting a channel of this type (operations.md "Provider endpoints"). */
  connect: {
    /** The connect request's variant of this type (`type` its literal), in the contract's union. */
    request: z.ZodObject;
    /** Provider calls per second at most, unless the request says. */
    defaultRatePerSecond: number;
    /** The secrets a channel of this type keeps, in the order they are shown. */
    secretNames: readonly string[];
    /** The row's parts from the checked request (its variant's output). */
    prepare(request: { type: ChannelType; name?: string }, kit: ConnectKit): Promise<ConnectedRow>;
    /** The operator's `svc channel connect --type <type>` (operations.md): its options, the request they make, and its answer. */
    cli: {
      /** The usage line's options after `--type <type>`. */
      usage: string;
      options: readonly CliOption[];
      /** The request's fields of this type from the options (`name` and `rate_per_second` are every type's). */
      request(values: CliValues): Record<string, unknown>;
      /** The answer: `json` with `--json` (everything `text` shows), and `text`'s lines. */
      connected(channel: CliConnected): { json: Record<string, unknown>; text: string[] };
    };
  };
  /** D16: what the channel's content object of a send (API or flow step) must hold, beyond its schema. */
  checkContent(fields: object | undefined, issue: ContentIssue): void;
  /** D42: the channel sends provider-approved templates, so its content is chosen by `whatsappContent` (messaging). */
  templates: boolean;
  /** D93: the channel has a sending reputation whose guard pauses journeys' sends on it. */
  reputationGuard: boolean;
  /**
   * The free-form content as it will be sent (D17, D48), from the send request's object of this
   * channel (`whatsapp`, `email`): its texts filled by `fill`, with the channel's limits.
   */
  render(fields: object | undefined, fill: Fill): Content;
  /** The dashboard's test message (`sendTestMessage`): the typed address checked, and the content to send. */
  testMessage(
    database: Database,
    channel: { id: string; workspaceId: string },
    input: TestMessageInput,
  ): Promise<{ to: string; content: Content }>;
  /** Where the channel's provider sends its reports, under the app's URL. */
  callbackPath: string;
  /** Whether `callbackPath` is followed by the channel's id (one callback URL per channel). */
  callbackPerChannel: boolean;
  /** D90, D96: what the provider's final refusal with this error code (as the message keeps it) changes; absent: nothing. */
  refusal?(errorCode: string): RefusalEffect | undefined;
  /** D97: what the message keeps of its content's segments (sms); absent on channels without segments. */
  segments?(content: Content): SegmentsView;
}

/**
 * A channel's server-only parts (`<type>/server.ts`), registered by type in
 * `server-registry.ts`: what may use Node's modules, so nothing the dashboard's bundles reach
 * through `registry.ts` imports them.
 */
export interface ServerChannel {
  /** Its provider's client (server/providers/): how a message of this channel is sent. */
  client: ProviderClient;
}
