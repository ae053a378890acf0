import type { Channel } from "@/server/channels/channel-schemas.ts";
import { wordsTable } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";

export type ChannelType = Channel["type"];

export const TYPE_LABEL = CHANNEL_LABEL;

/** The names of the sealed secrets (server/channels/channel-schemas.ts SECRET_NAMES), for people. */
export const SECRET_LABEL: Record<string, string> = {
  access_token: "Access token",
  app_secret: "App secret",
  verify_token: "Verify token",
  smtp_url: "SMTP URL",
  events_token: "Events token",
  dkim_private_key: "DKIM private key",
  auth_token: "Auth token",
};

/** What `external_id` is for each type. */
export const EXTERNAL_ID_LABEL = wordsTable((words) => words.externalId);
