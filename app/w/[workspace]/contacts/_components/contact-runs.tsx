"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { RelativeTime } from "@/app/_components/relative-time.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { RunStatusBadge } from "../../flows/_components/flow-labels.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

/** A contact's journeys: each run with its flow (linked to the run on the flow's page), status and times. */
export function ContactRuns({ workspace, contactId }: { workspace: string; contactId: string }) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.flows.contactRuns.queryOptions({ contact_id: contactId }));
  const base = `/w/${encodeURIComponent(workspace)}/flows`;
  return (
    <section className="section" aria-labelledby="contact-runs">
      <h2 id="contact-runs">Flow runs</h2>
      <QueryState query={runs} what="the runs" />
      {runs.data &&
        (runs.data.length === 0 ? (
          <p className="empty">This contact has not been in any flow.</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Flow runs of this contact, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Flow</th>
                  <th scope="col">Run</th>
                  <th scope="col">Status</th>
                  <th scope="col">Started</th>
                  <th scope="col">Ended</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      <Link href={`${base}/${encodeURIComponent(r.flow_id)}?run=${encodeURIComponent(r.id)}`}>{r.flow_name}</Link>
                    </th>
                    <td>
                      <span className="cell-stack">
                        <code>{r.id}</code> {r.mode === "test" && <span className="badge test">test</span>}
                        {r.key !== null && (
                          <span className="cell-line muted">
                            key <code className="run-key">{r.key}</code>
                          </span>
                        )}
                      </span>
                    </td>
                    <td>
                      <span className="cell-stack">
                        <RunStatusBadge status={r.status} />
                        {r.reason && <span className="cell-line muted">{r.reason}</span>}
                      </span>
                    </td>
                    <td>
                      <RelativeTime value={r.created_at} />
                    </td>
                    <td>{r.ended_at ? <RelativeTime value={r.ended_at} /> : <span className="muted">Still in the flow</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
