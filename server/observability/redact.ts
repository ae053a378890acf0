// D54: logs carry no personal data. A URL's path segments and query values that are, once
// decoded, an e-mail address or a phone number are replaced before the URL is logged.

const PHONE = /^\+?[\d\s().-]{7,20}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function redactPart(part: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    decoded = part;
  }
  if (decoded.includes("@")) return "[email]";
  const digits = decoded.replace(/\D/g, "").length;
  if (PHONE.test(decoded.trim()) && digits >= 7 && !DATE.test(decoded)) return "[phone]";
  return part;
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
      return eq === -1 ? pair : `${pair.slice(0, eq)}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join("&");
  return `${path}?${query}`;
}
