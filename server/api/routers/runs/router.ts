import { router } from "../../trpc.ts";
import { getRun } from "./get-run.ts";
import { listRuns } from "./list-runs.ts";

// D82: runs as the API reads them (the dashboard's views of runs are in the flows router).
export const runsRouter = router({
  get: getRun,
  list: listRuns,
});
