import { ZCreateTagRequest, ZTag } from "../../../tags/tag-schemas.ts";
import type { Meta } from "../../trpc.ts";

export const createTagMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/tags",
    tags: ["Tags"],
    summary: "Create a tag",
    description: "Answers `409 conflict` (`param` = `name`) when a tag of that name exists, compared case-insensitively after trimming.",
    protect: true,
  },
  scope: "tags:write",
  idempotent: true,
  successStatus: 201,
  errors: ["tag_name_taken"],
};

export { ZCreateTagRequest, ZTag as ZCreateTagResponse };
