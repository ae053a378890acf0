// D54: logs carry no personal data. Every URL the service logs (the public API's and the
// dashboard's alike, whose tRPC GET requests carry their input as URL-encoded JSON in
// `input=`) goes through redactUrl: each path segment and query value is decoded, and every
// e-mail address and phone number inside it is replaced, wherever it stands in the text.

/** Any word holding an @: an e-mail address, or the start of one typed into a search. */
const EMAIL = /[^\s"'<>,;:@/\\]*@[^\s"'<>,;:@/\\]*/g;
/**
 * A run of digits in any format phone.ts accepts (a leading +, spaces, dashes, dots,
 * parentheses; a + also stands for a space in a query), standing apart from letters and
 * digits (ids such as `msg_3kQz81Lm` keep theirs). It is a phone number when it has 7 to 15
 * digits (E.164 holds at most 15) and is not a date.
 */
const PHONE_LIKE = /(?<![\w+])\+?\(?\d[\d\s().+-]*\d\)?(?!\w)/g;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** `text` with its e-mail addresses and phone numbers replaced by `[email]` and `[phone]`. */
export function redactText(text: string): string {
  return text.replace(EMAIL, "[email]").replace(PHONE_LIKE, (run) => {
    const digits = run.replace(/\D/g, "").length;
    return digits >= 7 && digits <= 15 && !DATE.test(run.trim()) ? "[phone]" : run;
  });
}

/** Decodes each run of %XX escapes that decodes, so one malformed escape hides nothing else. */
const decode = (part: string) =>
  part.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/** A URL component as received when it holds no personal data; else decoded, redacted. */
function redactPart(part: string): string {
  const decoded = decode(part);
  const redacted = redactText(decoded);
  return redacted === decoded ? part : redacted;
}

export function redactUrl(url: string): string {
  const q = url.indexOf("?");
  const path = (q === -1 ? url : url.slice(0, q)).split("/").map(redactPart).join("/");
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq === -1 ? redactPart(pair) : `${pair.slice(0, eq)}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join("&");
  return `${path}?${query}`;
}
