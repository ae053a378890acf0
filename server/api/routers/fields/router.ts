import { router } from "../../trpc.ts";
import { createField } from "./create-field.ts";
import { deleteField } from "./delete-field.ts";
import { listFields } from "./list-fields.ts";

export const fieldsRouter = router({ list: listFields, create: createField, delete: deleteField });
