import { router } from "../../trpc.ts";
import { createTag } from "./create-tag.ts";
import { deleteTag } from "./delete-tag.ts";
import { listTags } from "./list-tags.ts";

export const tagsRouter = router({ list: listTags, create: createTag, delete: deleteTag });
