import { router } from "../../trpc.ts";
import { allFlows } from "./all-flows.ts";
import { contactRuns } from "./contact-runs.ts";
import { createFlow } from "./create-flow.ts";
import { enrollContact } from "./enroll-contact.ts";
import { createFlowDocument, getFlowDocument, listVersions, replaceFlow, setFlowStatusApi } from "./flow-documents.ts";
import { flowStats } from "./flow-stats.ts";
import { previewEdit } from "./preview-edit.ts";
import { getFlow } from "./get-flow.ts";
import { getRun } from "./get-run.ts";
import { listFlows } from "./list-flows.ts";
import { listRuns } from "./list-runs.ts";
import { modeStats } from "./mode-stats.ts";
import { setFlowStatus } from "./set-flow-status.ts";
import { startRun } from "./start-run.ts";
import { stopRun } from "./stop-run.ts";
import { unenrollContact } from "./unenroll-contact.ts";
import { updateFlow } from "./update-flow.ts";

export const flowsRouter = router({
  list: listFlows,
  enroll: enrollContact,
  unenroll: unenrollContact,
  all: allFlows,
  get: getFlow,
  create: createFlow,
  update: updateFlow,
  setStatus: setFlowStatus,
  runs: listRuns,
  run: getRun,
  stopRun,
  startRun,
  stats: flowStats,
  modeStats,
  preview: previewEdit,
  contactRuns,
  // D98: the API's flows as documents (the dashboard's `get`, `create`, `update` and `setStatus` above share their services).
  createDocument: createFlowDocument,
  document: getFlowDocument,
  replace: replaceFlow,
  status: setFlowStatusApi,
  versions: listVersions,
});
