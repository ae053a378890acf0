import { fromZodError } from "../../../lib/errors.ts";

/**
 * The service checks the document itself (its input is `unknown`), so its ZodError arrives
 * inside the resolver, where tRPC would make it a 500: here it becomes the AppError with the
 * fault's path (`steps.2.whatsapp.body`) that the errorFormatter and the editor read.
 */
export function asAppError(err: unknown): never {
  throw fromZodError(err) ?? err;
}
