// Where Twilio posts an sms channel's status callbacks and inbound messages (D95), under the
// app's URL, followed by the channel's id. A module of its own, free of the HTTP client, as
// the dashboard's bundles reach it through the channel registry.
export const SMS_CALLBACK_PATH = "/api/providers/sms/twilio";
