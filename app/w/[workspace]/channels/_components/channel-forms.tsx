import { DASHBOARD_CHANNELS } from "@/app/_channels/channels.ts";
import type { ChannelForm } from "@/app/_channels/connect-form.tsx";
import type { ChannelType } from "./channel-labels.ts";

export type { FieldSpec, FormValues } from "@/app/_channels/connect-form.tsx";

// Issue 49: what the dashboard shows of each channel type, its connect form, card and test
// dialog, from its part (app/_channels/<type>/connect-form.tsx), so the connect dialog and the
// channel card hold no branch on a channel's name.
export const CHANNEL_FORMS = Object.fromEntries(Object.entries(DASHBOARD_CHANNELS).map(([type, channel]) => [type, channel.form])) as {
  [T in ChannelType]: ChannelForm<T>;
};
