import { router } from "../../trpc.ts";
import { connectChannel } from "./connect-channel.ts";
import { disconnectChannel } from "./disconnect-channel.ts";
import { dnsCheck, domain } from "./domain.ts";
import { getChannel } from "./get-channel.ts";
import { listChannels, listConnectedChannels } from "./list-channels.ts";
import { resumeChannel } from "./resume-channel.ts";
import { sendTest } from "./send-test.ts";

export const channelsRouter = router({
  list: listChannels,
  listConnected: listConnectedChannels,
  get: getChannel,
  connect: connectChannel,
  disconnect: disconnectChannel,
  resume: resumeChannel,
  sendTest,
  domain,
  dnsCheck,
});
