import type { Selectable } from "kysely";
import type { DB } from "../generated/kysely/types.ts";

/**
 * The columns `K` of table `T` as a SQL statement returns them, typed from `schema.prisma`
 * (the generated `server/generated/kysely`): a column renamed or retyped there fails the type
 * check of every statement that reads it. A JSON column is `unknown` here; a statement that
 * knows its shape narrows it with an intersection (`Columns<"flow_versions", "steps"> & { steps: Step[] }`).
 */
export type Columns<T extends keyof DB, K extends keyof Selectable<DB[T]>> = Pick<Selectable<DB[T]>, K>;

/** The same columns where a left join may find no row. */
export type Nullable<T> = { [K in keyof T]: T[K] | null };
