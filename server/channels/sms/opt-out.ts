// D96: an inbound sms whose whole body, trimmed and in any case, is one of Twilio's opt-out
// words sets the contact's `opt_out_sms`; one of its opt-in words clears it. Any other body,
// including one that only contains such a word ("STOP please"), changes nothing.

const OPT_OUT = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"]);
const OPT_IN = new Set(["START", "YES", "UNSTOP"]);

export type SmsKeyword = "opt_out" | "opt_in";

export function smsKeyword(body: string): SmsKeyword | null {
  const word = body.trim();
  // ASCII letters only: toUpperCase would also turn "ſtop" (long s) or "quıt" (dotless i) into a keyword.
  if (!/^[A-Za-z]+$/.test(word)) return null;
  const upper = word.toUpperCase();
  if (OPT_OUT.has(upper)) return "opt_out";
  if (OPT_IN.has(upper)) return "opt_in";
  return null;
}
