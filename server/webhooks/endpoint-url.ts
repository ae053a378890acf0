import { env } from "../lib/env.ts";
import { invalid } from "../lib/errors.ts";
import { assertAllowedHost } from "../lib/private-address.ts";

/**
 * D30 and D34 at registration: an absolute https URL (http only where the operator allows
 * private addresses, for development), no credentials in it, and a host that resolves to
 * public addresses only. Delivery checks the address again when it connects.
 */
export async function checkEndpointUrl(text: string, param = "url"): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid("parameter_invalid", `${param}: not an absolute URL.`, param);
  }
  const allowHttp = env().allowPrivateWebhooks;
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) {
    throw invalid("parameter_invalid", allowHttp ? `${param}: must be an http or https URL.` : `${param}: must be an https URL.`, param);
  }
  if (url.username || url.password) throw invalid("parameter_invalid", `${param}: must not carry a user name or password.`, param);
  await assertAllowedHost(url.hostname, param);
  return url.toString();
}
