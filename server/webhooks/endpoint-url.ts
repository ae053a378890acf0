import { env } from "../lib/env.ts";
import { invalid } from "../lib/errors.ts";
import { assertAllowedHost, checkHost, privateAddress } from "../lib/private-address.ts";

/** How to receive events on this machine instead (a refusal that named neither left people guessing). */
const RECEIVE_LOCALLY =
  "to receive events on this machine, run `npx svc listen --forward-to URL` in the service's directory, or set ALLOW_PRIVATE_WEBHOOKS=1 on the server (development, tests)";

/**
 * D30 and D34 at registration: an absolute https URL (http only where the operator allows
 * private addresses, for development), no credentials in it, and a host that resolves to
 * public addresses only. Delivery checks the address again when it connects. A loopback or
 * private address, http or https, is refused naming `svc listen` and ALLOW_PRIVATE_WEBHOOKS.
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
    const check = url.protocol === "http:" ? await checkHost(url.hostname) : null;
    if (check && !check.ok && check.reason === "private") throw privateAddress(param, url.hostname, check.address, RECEIVE_LOCALLY);
    throw invalid("parameter_invalid", allowHttp ? `${param}: must be an http or https URL.` : `${param}: must be an https URL.`, param);
  }
  if (url.username || url.password) throw invalid("parameter_invalid", `${param}: must not carry a user name or password.`, param);
  await assertAllowedHost(url.hostname, param, RECEIVE_LOCALLY);
  return url.toString();
}
