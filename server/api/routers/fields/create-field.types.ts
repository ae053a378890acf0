import { ZCreateFieldRequest, ZCustomField } from "../../../fields/field-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const createFieldMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/custom-fields",
    tags: ["Custom fields"],
    summary: "Create a custom field",
    description: "Its `key` becomes the placeholder `{{key}}`. `409 conflict` (`param` = `key`) when the key exists.",
    protect: true,
  },
  scope: "fields:write",
  idempotent: true,
  successStatus: 201,
  errors: ["field_key_taken"],
};

export { ZCreateFieldRequest, ZCustomField as ZCreateFieldResponse };
