import type { ChannelType, DashboardChannel } from "./dashboard-channel.ts";
import { email } from "./email/index.ts";
import { sms } from "./sms/index.ts";
import { whatsapp } from "./whatsapp/index.ts";

// The dashboard's channel list: every channel type's parts (app/_channels/<type>/), so `tsc`
// fails on a type without them.
export const DASHBOARD_CHANNELS: { readonly [T in ChannelType]: DashboardChannel<T> } = { whatsapp, email, sms };
