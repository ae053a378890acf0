import { router } from "../../trpc.ts";
import { createField } from "./create-field.ts";
import { listFields } from "./list-fields.ts";

export const fieldsRouter = router({ list: listFields, create: createField });
