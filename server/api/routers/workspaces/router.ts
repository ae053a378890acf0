import { router } from "../../trpc.ts";
import { listMyWorkspaces } from "./list-my-workspaces.ts";

export const workspacesRouter = router({ mine: listMyWorkspaces });
