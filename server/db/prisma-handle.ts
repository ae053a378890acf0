import type { Prisma } from "../generated/prisma/client.ts";
import type { Handle } from "./client.ts";

/**
 * A Prisma interactive transaction as a `Handle`: a statement written in SQL (a table's one
 * writer: an event, an audit entry, a job) runs inside that transaction and commits with its
 * Prisma calls. Its statements go through Prisma's raw query (`$queryRawUnsafe`), so only
 * for the dashboard's writes that are Prisma calls already; the hot paths open their
 * transactions with `Database.transaction`.
 */
export function prismaHandle(tx: Prisma.TransactionClient): Handle {
  return <T>(text: string, values: unknown[] = []) => tx.$queryRawUnsafe<T[]>(text, ...values);
}
