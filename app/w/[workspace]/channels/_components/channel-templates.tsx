"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { Channel } from "@/server/channels/channel-schemas.ts";
import "@/app/styles/whatsapp.css";
import { QueryState } from "@/app/_components/query-state.tsx";

/** At most this many templates are listed per channel (one page of the listing). */
const SHOWN = 100;

/**
 * A WhatsApp channel's message templates as last synced from Meta: name, language, category,
 * status, parameters and the body; admins sync them now.
 */
export function ChannelTemplates({ channel, canManage }: { channel: Channel; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const headingId = useId();
  const templates = useQuery(trpc.whatsapp.templates.queryOptions({ channel_id: channel.id, limit: SHOWN }));
  const [synced, setSynced] = useState<string | null>(null);
  const sync = useMutation(
    trpc.whatsapp.syncTemplates.mutationOptions({
      onSuccess: async (result) => {
        setSynced(`${result.templates} template${result.templates === 1 ? "" : "s"} synced.`);
        await Promise.all([
          queryClient.invalidateQueries(trpc.whatsapp.templates.queryFilter()),
          queryClient.invalidateQueries(trpc.channels.list.queryFilter()),
        ]);
      },
    }),
  );
  const noAccount = !channel.settings.waba_id;

  return (
    <section className="channel-templates" aria-labelledby={headingId}>
      <div className="channel-templates-head">
        <h3 id={headingId}>Message templates</h3>
        <p className="muted hint">
          Last synced: <When value={channel.templates_synced_at} empty="never" />
        </p>
        {canManage && !noAccount && (
          <button
            type="button"
            className="button small"
            aria-label={`Sync templates of ${channel.name}`}
            disabled={sync.isPending}
            onClick={() => {
              setSynced(null);
              sync.mutate({ channel_id: channel.id });
            }}
          >
            {sync.isPending ? "Syncing…" : "Sync templates"}
          </button>
        )}
      </div>
      <p role="status" className="ok">
        {synced ?? ""}
      </p>
      {sync.isError && (
        <p role="alert" className="error">
          Could not sync the templates: {apiFault(sync.error).message}
        </p>
      )}
      {noAccount && (
        <p className="note">
          This channel has no WhatsApp Business account id, so it has no templates. Connect it again with the account id to send templates
          outside the 24-hour window.
        </p>
      )}
      <QueryState query={templates} what="the templates" />
      {templates.data &&
        !noAccount &&
        (templates.data.length === 0 ? (
          <p className="empty">No templates yet. Create them in Meta&apos;s WhatsApp Manager, then sync.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Message templates of {channel.name}</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Language</th>
                  <th scope="col">Category</th>
                  <th scope="col">Status</th>
                  <th scope="col">Parameters</th>
                  <th scope="col">Body</th>
                </tr>
              </thead>
              <tbody>
                {templates.data.map((t) => (
                  <tr key={t.id}>
                    <th scope="row">
                      <code>{t.name}</code>
                    </th>
                    <td>
                      <code>{t.language}</code>
                    </td>
                    <td>{t.category}</td>
                    <td>
                      <span className={`badge template-${t.status}`}>{t.status}</span>
                    </td>
                    <td>
                      {t.parameters.length ? (
                        <ul className="chips" aria-label={`Parameters of ${t.name}`}>
                          {t.parameters.map((p) => (
                            <li key={p}>
                              <code>{p}</code>
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <span className="muted">None</span>
                      )}
                    </td>
                    <td className="template-body">{t.body}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
