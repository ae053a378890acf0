import { router } from "../../trpc.ts";
import { connectChannel } from "./connect-channel.ts";
import { disconnectChannel } from "./disconnect-channel.ts";
import { checkDomain, domain } from "./domain.ts";
import { listChannels } from "./list-channels.ts";
import { sendTest } from "./send-test.ts";

export const channelsRouter = router({
  list: listChannels,
  connect: connectChannel,
  disconnect: disconnectChannel,
  sendTest,
  domain,
  checkDomain,
});
