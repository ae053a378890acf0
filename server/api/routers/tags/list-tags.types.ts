import { z } from "zod";
import { ZPageQuery } from "../../../lib/pagination.ts";
import { ZTag } from "../../../tags/tag-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const listTagsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/tags",
    tags: ["Tags"],
    summary: "List tags",
    description: 'Ordered by `created_at` then `id`. When more tags exist, a `Link` header with `rel="next"` gives the next page.',
    protect: true,
  },
  scope: "tags:read",
};

export const ZListTagsRequest = ZPageQuery;
export const ZListTagsResponse = z.array(ZTag);
