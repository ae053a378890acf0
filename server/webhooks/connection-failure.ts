import { PRIVATE_ADDRESS_ERROR } from "../lib/private-address.ts";

// Why a delivery got no answer, as the sentence stored in the delivery's `last_error` and read
// in the dashboard and the API, the system's own code kept at the end for searching:
// "The endpoint refused the connection (ECONNREFUSED 127.0.0.1:9)."

const TLS = /^(ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/;

export function connectionFailure(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown; address?: unknown; port?: unknown; hostname?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const message = typeof e?.message === "string" && e.message ? e.message : String(err);
  const where = typeof e?.address === "string" ? ` ${e.address}${typeof e.port === "number" ? `:${e.port}` : ""}` : "";
  switch (true) {
    case code === "ECONNREFUSED":
      return `The endpoint refused the connection (ECONNREFUSED${where}).`;
    case code === "ENOTFOUND" || code === "EAI_AGAIN":
      return `The endpoint's host name could not be resolved (${code}${typeof e?.hostname === "string" ? ` ${e.hostname}` : ""}).`;
    case code === "UND_ERR_CONNECT_TIMEOUT":
      return `The endpoint did not accept the connection in time (${message}).`;
    case code === "ETIMEDOUT":
      return `The endpoint did not answer in time: ${message}.`;
    case code === "ECONNRESET" || code === "EPIPE":
      return `The connection closed before the answer was complete (${code}).`;
    case code === "EHOSTUNREACH" || code === "ENETUNREACH":
      return `The endpoint's address cannot be reached from here (${code}${where}).`;
    case TLS.test(code):
      return `The endpoint's TLS certificate was refused (${code}).`;
    case code === PRIVATE_ADDRESS_ERROR:
      return `The endpoint resolves to a private address, where deliveries are not sent (${message}).`;
    default:
      return message;
  }
}
