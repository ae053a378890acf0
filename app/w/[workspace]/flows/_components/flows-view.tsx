"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { faultPlace, inWords } from "./fault-words.ts";
import { FlowStatusBadge, positionLabel } from "./flow-labels.tsx";
import { ImportDialog } from "./import-dialog.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const REFRESH_MS = 5_000;

/** The flows page: every flow with its runs counted. Admins add one (editor or JSON import); support staff only read. */
export function FlowsView({ workspace, canManage }: { workspace: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  // Runs move on their own (the pipeline): the counts are read afresh on each visit, and followed while runs are active.
  const flows = useQuery({
    ...trpc.flows.all.queryOptions(),
    refetchOnMount: "always",
    refetchInterval: (query) => (query.state.data?.some((f) => f.runs.active > 0) ? REFRESH_MS : false),
  });
  const [importing, setImporting] = useState(false);
  const create = useMutation(trpc.flows.create.mutationOptions());
  const base = `/w/${encodeURIComponent(workspace)}/flows`;
  // A refused document is said in words, at its step (fault-words.ts).
  const fault = create.isError ? inWords(apiFault(create.error)) : null;
  const faultStep = faultPlace(fault?.param)?.position;

  return (
    <>
      <div className="page-header">
        <div>
          <h1>Flows</h1>
          <p className="muted">
            Journeys that contacts enter through the API&apos;s enroll: messages, waits, branches, tags and field changes, step by step.
          </p>
        </div>
        {canManage && (
          <div className="header-actions">
            <button type="button" className="button" onClick={() => setImporting(true)}>
              Import JSON
            </button>
            <Link href={`${base}/new`} className="button primary">
              New flow
            </Link>
          </div>
        )}
      </div>
      {!canManage && <p className="note">You have read-only access to this workspace&apos;s flows and their runs.</p>}

      <QueryState query={flows} what="the flows" />
      {flows.data &&
        (flows.data.length === 0 ? (
          <p className="empty">No flows yet.{canManage ? " Create one with New flow, or import a JSON document." : ""}</p>
        ) : (
          <div className="table-wrap">
            <table aria-label="Flows">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="number">
                    Version
                  </th>
                  <th scope="col" className="number">
                    Active runs
                  </th>
                  <th scope="col" className="number">
                    Completed
                  </th>
                  <th scope="col" className="number">
                    Stopped
                  </th>
                  <th scope="col" className="number">
                    Failed
                  </th>
                  <th scope="col">Updated</th>
                </tr>
              </thead>
              <tbody>
                {flows.data.map((f) => (
                  <tr key={f.id}>
                    <th scope="row">
                      <span className="cell-stack">
                        <Link href={`${base}/${f.id}`}>{f.name}</Link>
                        <span className="flow-id">
                          <code>{f.id}</code>
                          <CopyButton value={f.id} label={`Copy the ID of ${f.name}`} />
                        </span>
                      </span>
                    </th>
                    <td>
                      <FlowStatusBadge status={f.status} />
                    </td>
                    <td className="number">{f.version}</td>
                    <td className="number">{f.runs.active}</td>
                    <td className="number">{f.runs.completed}</td>
                    <td className="number">{f.runs.stopped}</td>
                    <td className="number">{f.runs.failed}</td>
                    <td>
                      <When value={f.updated_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}

      {importing && (
        <ImportDialog
          title="Import a flow"
          intro="Paste a flow document (the JSON a flow's Download JSON gives), or read it from a file. It becomes a new flow, in the document's status (draft when it has none)."
          confirmLabel="Import flow"
          pending={create.isPending}
          error={fault ? `${faultStep ? `${positionLabel(faultStep)}: ` : ""}${fault.message}` : null}
          onImport={(definition) =>
            create.mutate(
              { definition },
              {
                onSuccess: async (answer) => {
                  await queryClient.invalidateQueries(trpc.flows.all.queryFilter());
                  setImporting(false);
                  router.push(`${base}/${answer.flow_id}`);
                },
              },
            )
          }
          onClose={() => {
            setImporting(false);
            create.reset();
          }}
        />
      )}
    </>
  );
}
