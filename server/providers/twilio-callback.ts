// What the sms channel's module needs of Twilio, in a module of its own, free of the HTTP
// client, as the dashboard's bundles reach it through the channel registry.

/** D94: the API base a channel calls unless it names another (`api_base_url`). */
export const DEFAULT_TWILIO_API_BASE_URL = "https://api.twilio.com";

/** D95: where Twilio posts a channel's status callbacks and inbound messages, under the app's URL, followed by the channel's id. */
export const SMS_CALLBACK_PATH = "/api/providers/sms/twilio";
