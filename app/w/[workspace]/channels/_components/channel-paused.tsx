"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { Channel } from "@/server/channels/channel-schemas.ts";

const WHY: Record<NonNullable<Channel["paused_reason"]>, string> = {
  payment:
    "WhatsApp stopped this number because of a problem with the business account's payment method. Every live send on it is refused.",
  policy: "WhatsApp blocked this number for a policy violation. Every live send on it is refused.",
  complaint_rate:
    "Its spam-complaint rate over the last 7 days passed the workspace's threshold. Journey e-mails on it are skipped; e-mails you send through the API still go.",
  bounce_rate:
    "Its hard-bounce rate over the last 7 days passed the workspace's threshold. Journey e-mails on it are skipped; e-mails you send through the API still go.",
};

/** A paused channel's banner: why, since when, and (admins) the Resume button. */
export function ChannelPaused({ channel, canManage }: { channel: Channel; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const resume = useMutation(
    trpc.channels.resume.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(trpc.channels.list.queryFilter()),
    }),
  );
  if (channel.status !== "paused" || !channel.paused_reason) return null;
  return (
    <div className="banner warning" role="status" aria-label={`${channel.name} is paused`}>
      <p>
        <strong>Paused</strong> since <When value={channel.paused_at} />. {WHY[channel.paused_reason]} Fix the cause, then resume the
        channel.
      </p>
      {resume.isError && (
        <p role="alert" className="error">
          {errorMessage(resume.error)}
        </p>
      )}
      {canManage && (
        <button
          type="button"
          className="button small"
          disabled={resume.isPending}
          aria-label={`Resume ${channel.name}`}
          onClick={() => resume.mutate({ channel_id: channel.id })}
        >
          {resume.isPending ? "Resuming…" : "Resume"}
        </button>
      )}
    </div>
  );
}
