"use client";

import { skipToken, useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { Step } from "@/server/flows/flow-schemas.ts";
import { MESSAGE_OUTCOMES, type MessageOutcome } from "@/server/flows/flow-schemas.ts";
import { pathsById, stepAt } from "@/server/flows/step-path.ts";
import { faultPlace, inWords } from "./fault-words.ts";
import { positionLabel, stepLabel } from "./flow-labels.tsx";
import { MESSAGE_WAIT_WORDS } from "./step-summary.ts";

type Migrate = "keep" | "move";
type Next = { step: string | null; action: string; at: string | null; text: string | null; for?: string; until?: string };
type Preview = {
  counts: { runs: number; moved: number; kept: number; completed: number };
  runs: { run_id: string; contact_id: string; current: { id: string; path: string } | null; next: { old: Next; new: Next } }[];
};

/** A step of `steps` named as the canvas names it ("Step 2 › then › 1 (Send a message)"), found by its id (D70). */
function stepName(steps: Step[], id: string | null): string | null {
  const position = id === null ? undefined : pathsById(steps).get(id);
  return position ? stepLabel(steps, position) : null;
}

/** What a wait_for waits for, in words: its step's event or message outcome when the step is known, else the preview's `for`. */
function waitWords(next: Next, steps: Step[]): string {
  const position = next.step === null ? undefined : pathsById(steps).get(next.step);
  const step = position && stepAt(steps, position);
  const outcome =
    step?.type === "wait_for" ? step.message : (MESSAGE_OUTCOMES as readonly string[]).includes(next.for ?? "") ? next.for : undefined;
  const event = step?.type === "wait_for" ? step.event : next.for;
  // "Wait for a reply to the last message" → "Waits for a reply to the last message".
  if (outcome) return `Waits${MESSAGE_WAIT_WORDS[outcome as MessageOutcome].slice("Wait".length)}`;
  return event ? `Waits for the event “${event}”` : "Waits for an event or a reply";
}

/** What a run does next under one version: the step, what it does (the message it sends, in quotes, or the event it waits for) and when. */
function NextCell({ next, steps, changed }: { next: Next; steps: Step[]; changed?: boolean }) {
  const where = stepName(steps, next.step) ?? (next.step ? "A step of another version" : null);
  const what =
    next.action === "send"
      ? next.text === null
        ? "Sends a message"
        : `Sends “${next.text}”`
      : next.action === "wait_for"
        ? waitWords(next, steps)
        : "Leaves the journey (completed)";
  // A wait_for's time: when it begins (unless the run already waits in it) and when it times out.
  const times =
    next.action === "wait_for" && next.until ? (
      <>
        {next.at && next.at !== next.until && (
          <>
            from <When value={next.at} />,{" "}
          </>
        )}
        timeout at <When value={next.until} />
      </>
    ) : next.at ? (
      <When value={next.at} />
    ) : null;
  return (
    <td className={changed ? "preview-changed" : undefined}>
      <span className="cell-stack">
        {changed && <span className="badge">Changes</span>}
        <span>{what}</span>
        {(where || times) && (
          <span className="muted cell-line">
            {where}
            {where && times ? " · " : ""}
            {times}
          </span>
        )}
      </span>
    </td>
  );
}

const same = (a: Next, b: Next) => a.step === b.step && a.action === b.action && a.at === b.at && a.text === b.text && a.until === b.until;

/**
 * Saving an active flow: for the people in the journey, who each one is, where each is, and
 * what each gets next (the message rendered, and when) under the version they are on and
 * under the edited one, with `keep` or `move` (the service's preview, which changes nothing,
 * D70); saving with the chosen one calls `onSave`.
 */
export function SavePreviewDialog({
  flowId,
  draft,
  savedSteps,
  saving,
  onSave,
  onFault,
  onClose,
}: {
  flowId: string;
  draft: { steps: Step[] } & Record<string, unknown>;
  /** The steps of the flow's current version, which runs on it follow now. */
  savedSteps: Step[];
  saving: boolean;
  onSave: (migrate: Migrate) => void;
  /** The document is refused (a fault at one of its fields): the editor shows it at the field, not here. */
  onFault: (error: unknown) => void;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const [migrate, setMigrate] = useState<Migrate>("keep");
  const preview = useMutation(trpc.flows.preview.mutationOptions());
  const { mutate } = preview;
  useEffect(
    () => mutate({ flow_id: flowId, ...draft, migrate } as never, { onError: (error) => apiFault(error).param && onFault(error) }),
    // `onFault` is the editor's, fixed for the dialog's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [mutate, flowId, draft, migrate],
  );
  const data = preview.data as Preview | undefined;
  const ids = [...new Set((data?.runs ?? []).map((r) => r.contact_id))];
  const people = useQuery(trpc.contacts.names.queryOptions(ids.length > 0 ? { ids } : skipToken));
  return (
    <Modal title="Save this journey?" onClose={onClose} wide>
      <div className="stack">
        <fieldset className="field">
          <legend>People already in the journey</legend>
          <label>
            <input type="radio" name="migrate" checked={migrate === "keep"} onChange={() => setMigrate("keep")} /> Keep them on their
            version
          </label>
          <label>
            <input type="radio" name="migrate" checked={migrate === "move"} onChange={() => setMigrate("move")} /> Move them to the new
            version
          </label>
        </fieldset>
        {preview.isPending && <p role="status">Previewing…</p>}
        {preview.isError && !apiFault(preview.error).param && (
          <p role="alert" className="error">
            {inWords(apiFault(preview.error))!.message}
          </p>
        )}
        {data && (
          <>
            <p role="status" aria-label="Preview counts">
              {data.counts.runs} in the journey: {data.counts.kept} kept, {data.counts.moved} moved, {data.counts.completed} completed
              because their step is gone.
              {data.counts.runs > data.runs.length && ` The first ${data.runs.length} are listed.`}
            </p>
            {data.runs.length > 0 && (
              <div className="table-wrap">
                <table aria-label="People in the journey">
                  <thead>
                    <tr>
                      <th scope="col">Person</th>
                      <th scope="col">Now at</th>
                      <th scope="col">Next, as it is</th>
                      <th scope="col">Next, after saving</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.runs.map((r) => {
                      const person = people.data?.[r.contact_id];
                      const address = person?.phone ?? person?.email ?? null;
                      // The step by its id in the current version, else by its place in the run's own version.
                      const now = r.current && (stepName(savedSteps, r.current.id) ?? positionLabel(faultPlace(r.current.path)?.position));
                      return (
                        <tr key={r.run_id} data-run={r.run_id}>
                          <th scope="row">
                            <span className="cell-stack">
                              <span>{person?.name ?? address ?? r.contact_id}</span>
                              {person?.name && address && <span className="muted cell-line nowrap">{address}</span>}
                            </span>
                          </th>
                          <td>{now ?? "—"}</td>
                          <NextCell next={r.next.old} steps={savedSteps} />
                          <NextCell
                            next={r.next.new}
                            steps={migrate === "move" ? draft.steps : savedSteps}
                            changed={!same(r.next.old, r.next.new)}
                          />
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
        <DialogFooter onCancel={onClose}>
          <button type="button" className="button primary" disabled={saving || !data} onClick={() => onSave(migrate)}>
            {migrate === "move" ? "Save and move" : "Save"}
          </button>
        </DialogFooter>
      </div>
    </Modal>
  );
}
