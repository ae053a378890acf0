"use client";

import { TRPCClientError } from "@trpc/client";
import { errorMessage } from "./trpc.ts";

/** A failed call as a form shows it: the server's message and the parameter at fault, if any. */
export type ApiFault = { param: string | null; message: string };

type ErrorData = { param?: string | null; code?: string } | undefined;
type Issue = { path?: PropertyKey[]; message?: string };

/**
 * The server's AppErrors carry `param` in `data` (server/api/trpc.ts). Input the procedure's
 * zod schema refuses arrives as a plain BAD_REQUEST whose message is zod's list of issues:
 * its first issue is read the way the REST facade reads it (`param: message`).
 */
export function apiFault(error: unknown): ApiFault {
  if (!(error instanceof TRPCClientError)) return { param: null, message: errorMessage(error) };
  const data = error.data as ErrorData;
  if (data?.param !== undefined) return { param: data.param ?? null, message: error.message };
  const issue = data?.code === "BAD_REQUEST" ? firstIssue(error.message) : null;
  if (issue) {
    const param = (issue.path ?? []).map(String).join(".") || null;
    const message = issue.message ?? "is invalid";
    return { param, message: param ? `${param}: ${message}` : message };
  }
  return { param: null, message: errorMessage(error) };
}

function firstIssue(message: string): Issue | null {
  try {
    const parsed: unknown = JSON.parse(message);
    return Array.isArray(parsed) && parsed[0] && typeof parsed[0] === "object" ? (parsed[0] as Issue) : null;
  } catch {
    return null;
  }
}

/** Whether the fault names this form control: `tags` takes `tags.2`, `fields.plan` only itself. */
export function faultAt(fault: ApiFault | null, param: string): string | null {
  if (!fault?.param) return null;
  return fault.param === param || fault.param.startsWith(`${param}.`) ? fault.message : null;
}
