import { router } from "../../trpc.ts";
import { listActors } from "./list-actors.ts";
import { listEvents } from "./list-events.ts";

// The audit log page (dashboard only, admins only).
export const auditRouter = router({ list: listEvents, actors: listActors });
