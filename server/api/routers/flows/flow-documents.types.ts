import { z } from "zod";
import { FLOW_STATUSES } from "../../../flows/flow-schemas.ts";
import { ZFlowVersion, ZFlowWithDocument } from "../../../flows/flow-views.ts";
import { ZPageQuery } from "../../../lib/pagination.ts";
import type { Meta } from "../../trpc.ts";
import { documentMembers } from "./preview-edit.types.ts";

// D98: journeys as code. A flow's document goes in and comes back in one canonical form (D37,
// every step with its `id`, D70), so what GET answers can be kept in git and PUT back as is.

const ZFlowId = z.string().max(64).describe("Prefix `flow_`.");
const { migrate: _migrate, ...createMembers } = documentMembers;

const EXAMPLE_DOCUMENT = {
  name: "Welcome",
  status: "active",
  steps: [
    { id: "hello", type: "send", channel: "whatsapp", whatsapp: { body: "Hi {{name}}!" } },
    { id: "pause", type: "wait", duration: "P1D" },
  ],
};

/** Every fault of a document: the ones its own checks give (D37), at the document's path. */
const DOCUMENT_ERRORS = ["unknown_tag", "unknown_field", "invalid_field_value", "unknown_channel"] as const;

export const createFlowMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/flows",
    // The dashboard's `flows.create` has no route: the API's operation takes its name (`CreateFlowRequest`).
    operationId: "flows-create",
    tags: ["Flows"],
    summary: "Create a flow",
    description:
      "Takes a flow document, the format of the dashboard's editor and of `GET /flows/{flow_id}`, and answers the flow as " +
      "`GET /flows/{flow_id}` does, at `version` 1. `status` is `draft` when absent (a new flow cannot be `archived`). " +
      "Steps without an `id` get one. A fault in the document is a `400` whose `param` is its path in the document " +
      "(`steps.2.whatsapp.body`). Honours `Idempotency-Key`.",
    protect: true,
  },
  scope: "flows:write",
  idempotent: true,
  successStatus: 201,
  errors: [...DOCUMENT_ERRORS, "invalid_flow_status"],
};

export const ZCreateFlowRequest = z.strictObject(createMembers).meta({ example: EXAMPLE_DOCUMENT });

export const getFlowDocumentMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows/{flow_id}",
    operationId: "flows-get",
    tags: ["Flows"],
    summary: "Get a flow with its document",
    description:
      "The flow and the document of its current version, every step with its `id`. Sending `document` back with " +
      "`PUT /flows/{flow_id}` (or saving it in the dashboard) gives the same flow: no new version when nothing changed.",
    protect: true,
  },
  scope: "flows:read",
};

export const ZGetFlowDocumentRequest = z.object({ flow_id: ZFlowId });

export const replaceFlowMeta: Meta = {
  openapi: {
    method: "PUT",
    path: "/flows/{flow_id}",
    tags: ["Flows"],
    summary: "Replace a flow's document",
    description:
      "Takes a whole document, as `GET /flows/{flow_id}` answers it, with `migrate`: `keep` (the default: active runs finish on " +
      "their version) or `move` (active runs continue on the new version at the step with the same `id`; a run whose step is " +
      "gone completes). `POST /flows/{flow_id}/preview` shows what either would do first. Once a flow has left `draft`, a " +
      "changed document makes a new `version`; the same document changes nothing. A `status` in the document moves the " +
      "flow as `POST /flows/{flow_id}/status` does. An archived flow cannot be changed.",
    protect: true,
  },
  scope: "flows:write",
  errors: [...DOCUMENT_ERRORS, "invalid_flow_status", "flow_archived"],
};

export const ZReplaceFlowRequest = z
  .strictObject({ flow_id: ZFlowId, ...documentMembers })
  .meta({ example: { ...EXAMPLE_DOCUMENT, migrate: "move" } });

export const setFlowStatusMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/flows/{flow_id}/status",
    operationId: "flows-setStatus",
    tags: ["Flows"],
    summary: "Activate, pause or archive a flow",
    description:
      "`active` lets contacts enroll; `paused` holds every run where it is until the flow is active again; `archived` stops its " +
      "active runs and is final. A flow never goes back to `draft`. A move the lifecycle does not allow: `409`, code " +
      "`invalid_flow_status`. Setting the status it has changes nothing.",
    protect: true,
  },
  scope: "flows:write",
  errors: ["invalid_flow_status"],
};

export const ZSetFlowStatusRequest = z
  .strictObject({
    flow_id: ZFlowId,
    status: z.enum(FLOW_STATUSES.filter((s) => s !== "draft") as ["active", "paused", "archived"]),
  })
  .meta({ example: { status: "active" } });

export const listFlowVersionsMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/flows/{flow_id}/versions",
    tags: ["Flows"],
    summary: "List a flow's versions",
    description:
      'Oldest first, each with its document; `current` marks the one new runs start on. `after` is a version number; a `Link` header with `rel="next"` when more exist.',
    protect: true,
  },
  scope: "flows:read",
};

export const ZListFlowVersionsRequest = ZPageQuery.extend({ flow_id: ZFlowId });

export { ZFlowWithDocument };
export const ZFlowVersions = z.array(ZFlowVersion);
