import { z } from "zod";
import { ZCustomField } from "../../../fields/field-schemas.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";

export const listFieldsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/custom-fields",
    tags: ["Custom fields"],
    summary: "List custom fields",
    description: 'Ordered by `created_at` then `id`; a `Link` header with `rel="next"` when more exist.',
    protect: true,
  },
  scope: "fields:read",
};

export const ZListFieldsRequest = ZPageQuery;
export const ZListFieldsResponse = z.array(ZCustomField);
