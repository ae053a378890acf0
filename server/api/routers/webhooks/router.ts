import { router } from "../../trpc.ts";
import { createEndpoint } from "./create-endpoint.ts";
import { deleteEndpoint } from "./delete-endpoint.ts";
import { getDelivery } from "./get-delivery.ts";
import { listDeliveries } from "./list-deliveries.ts";
import { listEndpoints } from "./list-endpoints.ts";
import { replayDelivery } from "./replay-delivery.ts";
import { replayFailed } from "./replay-failed.ts";
import { rotateSecret } from "./rotate-secret.ts";
import { sendTestEvent } from "./send-test-event.ts";
import { updateEndpoint } from "./update-endpoint.ts";

export const webhooksRouter = router({
  list: listEndpoints,
  create: createEndpoint,
  update: updateEndpoint,
  delete: deleteEndpoint,
  rotateSecret,
  sendTestEvent,
  deliveries: listDeliveries,
  delivery: getDelivery,
  replay: replayDelivery,
  replayFailed,
});
