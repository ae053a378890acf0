"use client";

import { Link } from "@/app/_components/link.tsx";
import { positionLabel, STEP_TYPE_LABEL, stepAtPosition, type FlowDetails, type Run } from "./flow-labels.tsx";

/** A run's contact: its name (or address) linked to its page. */
export function ContactCell({ workspace, contactId, contact }: { workspace: string; contactId: string; contact: Run["contact"] }) {
  const href = `/w/${encodeURIComponent(workspace)}/contacts/${encodeURIComponent(contactId)}`;
  const address = contact?.phone ?? contact?.email ?? null;
  return (
    <span className="cell-stack">
      <Link href={href}>{contact?.name ?? address ?? contactId}</Link>
      {contact?.name && address && <span className="cell-line nowrap muted">{address}</span>}
    </span>
  );
}

/** The position of a run as a step label, with the step's type when the run is on the flow's current version. */
export function RunPosition({ run, flow }: { run: Pick<Run, "position" | "version" | "status">; flow: FlowDetails }) {
  if (run.status === "completed") return <span className="muted">Finished</span>;
  const steps = run.version === flow.version ? flow.definition.steps : undefined;
  const step = steps && stepAtPosition(steps, run.position);
  return (
    <span className="run-position">
      {positionLabel(run.position, steps)}
      {step ? (
        <span className="muted"> · {STEP_TYPE_LABEL[step.type]}</span>
      ) : run.version !== flow.version ? (
        <span className="muted"> (v{run.version})</span>
      ) : null}
    </span>
  );
}
