"use client";

import type { ReactNode } from "react";
import { Link } from "@/app/_components/link.tsx";
import { isoDurationWords } from "@/app/_components/duration.ts";
import { relativeTime } from "@/app/_components/relative-time.tsx";
import { Timeline } from "@/app/_components/timeline.tsx";
import { useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { When } from "@/app/_components/when.tsx";
import type { MessageOutcome, Step } from "@/server/flows/flow-schemas.ts";
import { matchWords } from "./event-words.ts";
import { positionLabel, STEP_TYPE_LABEL, stepAtPosition, type FlowDetails, type RunDetails, type StepType } from "./flow-labels.tsx";
import { detailOf, historyLabel, waitKind, type Entry } from "./run-history-words.ts";
import { A_CHANNEL, CHANNEL_WORDS } from "@/app/_components/channel-names.ts";

type RunEvent = RunDetails["events"][number];
type Position = (number | string)[];

const positionOf = (entry: Entry): Position | null => (Array.isArray(entry.position) ? (entry.position as Position) : null);

type Context = {
  workspace: string;
  run: RunDetails;
  /** The steps of the run's version when the page has them (the flow's current version). */
  steps: Step[] | null;
  events: Map<string, RunEvent>;
  tagName: (id: string) => string;
};

function MessageLink({ id, context }: { id: string | undefined; context: Context }) {
  if (!id) return <>a message</>;
  return (
    <>
      message{" "}
      <Link href={`/w/${encodeURIComponent(context.workspace)}/messages/${encodeURIComponent(id)}`}>
        <code>{id}</code>
      </Link>
    </>
  );
}

/** A contact event by its name, its id linked to the contact's events (on the contact's page), its properties folded. */
function EventRef({ id, context, capital = false }: { id: string | undefined; context: Context; capital?: boolean }) {
  if (!id) return <>{capital ? "An" : "an"} event</>;
  const event = context.events.get(id);
  const href = `/w/${encodeURIComponent(context.workspace)}/contacts/${encodeURIComponent(context.run.contact_id)}#contact-events`;
  return (
    <>
      {event ? (
        <>
          {capital ? "The" : "the"} event <code>{event.name}</code>
        </>
      ) : capital ? (
        "An event"
      ) : (
        "an event"
      )}{" "}
      (
      <Link href={href}>
        <code>{id}</code>
      </Link>
      )
    </>
  );
}

function EventProperties({ id, context }: { id: string | undefined; context: Context }) {
  const event = id ? context.events.get(id) : undefined;
  if (!event || Object.keys(event.properties).length === 0) return null;
  return (
    <details className="raw-detail">
      <summary>Properties of {event.name}</summary>
      <pre className="json">{JSON.stringify(event.properties, null, 2)}</pre>
    </details>
  );
}

function Until({ value }: { value: string | undefined }) {
  if (!value) return <>a time not recorded</>;
  return (
    <>
      <When value={value} /> ({relativeTime(value)})
    </>
  );
}

const OUTCOME_WORDS: Record<Exclude<MessageOutcome, "replied">, string> = { delivered: "delivered", read: "read", failed: "failed" };

/** What the run began to wait for, and until when at the latest. */
function WaitingSentence({ entry, index, context }: { entry: Entry; index: number; context: Context }) {
  const d = detailOf(entry);
  const position = positionOf(entry);
  const step = context.steps && position ? stepAtPosition(context.steps, position) : undefined;
  const wait = waitKind(d.for, step);
  switch (wait.kind) {
    case "duration":
      return (
        <>
          Began waiting {isoDurationWords(wait.duration)}, until <Until value={d.until} />.
        </>
      );
    case "until":
      return (
        <>
          Began waiting until <Until value={d.until} />.
        </>
      );
    case "event": {
      const match = matchWords(wait.match, context.run.key);
      return (
        <>
          Began waiting for the event <code>{wait.event}</code>
          {match ? ` where ${match}` : ""}, until <Until value={d.until} /> at the latest.
        </>
      );
    }
    case "message": {
      // The message of the run's latest send step before the wait (D63).
      const sent = context.run.history
        .slice(0, index)
        .reverse()
        .find((h) => h.kind === "step" && detailOf(h).type === "send");
      const message = <MessageLink id={sent ? detailOf(sent).message_id : undefined} context={context} />;
      return wait.outcome === "replied" ? (
        <>
          Began waiting for the contact to reply to {message}, until <Until value={d.until} /> at the latest.
        </>
      ) : (
        <>
          Began waiting for {message} to be {OUTCOME_WORDS[wait.outcome]}, until <Until value={d.until} /> at the latest.
        </>
      );
    }
  }
}

/** What ended a wait: an event, a message's outcome or the timeout. */
function WokeSentence({ entry, context }: { entry: Entry; context: Context }) {
  const d = detailOf(entry);
  if (d.by === "event") {
    return (
      <>
        <EventRef id={d.event_id} context={context} capital /> arrived and woke the run.
        <EventProperties id={d.event_id} context={context} />
      </>
    );
  }
  if (d.by === "message") {
    return d.status === "replied" ? (
      <>
        The contact replied (<MessageLink id={d.message_id} context={context} />
        ), which woke the run.
      </>
    ) : (
      <>
        The <MessageLink id={d.message_id} context={context} /> was {d.status ?? "reported"}, which woke the run.
      </>
    );
  }
  if (d.reason === "no_message") return <>Went on at once: the run had sent no message to wait for.</>;
  return <>The time ran out before what the run waited for arrived.</>;
}

const PATH_WORDS: Record<string, string> = {
  on_event: "Took the “event arrived” path: what the run waited for arrived.",
  on_timeout: "Took the “timed out” path: the time ran out first.",
};

function EndSentence({ entry }: { entry: Entry }) {
  const d = detailOf(entry);
  if (entry.kind === "completed") {
    if (d.reason === "goal_reached") return <>The flow&apos;s goal was reached, so the run ended here.</>;
    if (d.reason === "step_removed") return <>Its step was removed by an edit of the flow, so the run ended here.</>;
    if (!d.reason || d.reason === "end") return <>Went through the flow to its end.</>;
    return <>Ended: {d.reason}.</>;
  }
  if (entry.kind === "stopped") return <>{d.reason ? `Left the flow: ${d.reason}` : "Left the flow (unenrolled, no reason given)."}</>;
  return <>Could not go on{d.reason ? `: ${d.reason}` : "."}</>;
}

/** A run's history entry in a sentence, its message and events linked. */
function HistorySentence({ entry, index, context }: { entry: Entry; index: number; context: Context }): ReactNode {
  const d = detailOf(entry);
  const known = d.channel && d.channel in CHANNEL_WORDS ? (d.channel as keyof typeof CHANNEL_WORDS) : null;
  const channel = known ? CHANNEL_WORDS[known] : (d.channel ?? "");
  switch (entry.kind) {
    case "enrolled":
      return d.event_id ? (
        <>
          Entered the flow{d.version ? ` on version ${d.version}` : ""}, triggered by <EventRef id={d.event_id} context={context} />.
          <EventProperties id={d.event_id} context={context} />
        </>
      ) : (
        <>Entered the flow{d.version ? ` on version ${d.version}` : ""}.</>
      );
    case "waiting":
      return <WaitingSentence entry={entry} index={index} context={context} />;
    case "moved":
      return (
        <>
          Moved to version {d.to_version} by an edit of the flow{d.from_version ? ` (it was on version ${d.from_version})` : ""}.
        </>
      );
    case "held_quiet_hours":
      return (
        <>
          Held by the flow&apos;s quiet hours{d.time_zone ? ` (${d.time_zone})` : ""}: the message goes at <Until value={d.until} />.
        </>
      );
    case "woke":
      return <WokeSentence entry={entry} context={context} />;
    case "path":
      if (d.type === "split") return <>Took path {Number(d.path) + 1} of the random split.</>;
      return <>{PATH_WORDS[d.path ?? ""] ?? `Took the ${d.path} path.`}</>;
    case "converted":
      return (
        <>
          Reached the goal: <EventRef id={d.event_id} context={context} /> counts as a conversion.
          <EventProperties id={d.event_id} context={context} />
        </>
      );
    case "completed":
    case "stopped":
    case "failed":
      return <EndSentence entry={entry} />;
    case "skipped":
      return (
        <>
          Skipped the {channel} message{d.reason ? `: ${d.reason}` : "."}
          {d.skip && (
            <>
              {" "}
              <code className="muted">{d.skip}</code>
            </>
          )}
        </>
      );
  }
  switch (d.type) {
    case "send":
      return (
        <>
          Sent {known ? A_CHANNEL[known] : `a ${channel}`} <MessageLink id={d.message_id} context={context} />.
        </>
      );
    case "wait":
      return (
        <>
          Waited until <Until value={d.until} />.
        </>
      );
    case "branch":
      return <>Took the “{d.took}” side of the branch.</>;
    case "tag":
      return (
        <>
          {[
            d.add?.length ? `Added ${d.add.map(context.tagName).join(", ")}` : "",
            d.remove?.length ? `Removed ${d.remove.map(context.tagName).join(", ")}` : "",
          ]
            .filter(Boolean)
            .join("; ")}
          .
        </>
      );
    case "set_field":
      return (
        <>
          Set <code>{d.key}</code> to {d.value === null ? "nothing (removed it)" : `“${String(d.value)}”`}.
        </>
      );
    case "exit":
      return <>Exited the flow here.</>;
    default:
      return <>{entry.kind}</>;
  }
}

/** A run's history, oldest first, in sentences: each entry with its step ("Step 3 › event arrived › 1 · Send a message"). */
export function RunHistory({ workspace, run, flow }: { workspace: string; run: RunDetails; flow: FlowDetails }) {
  const tags = useWorkspaceTags();
  const context: Context = {
    workspace,
    run,
    steps: run.version === flow.version ? flow.definition.steps : null,
    events: new Map(run.events.map((e) => [e.id, e])),
    tagName: (id) => `“${tags.byId.get(id)?.name ?? id}”`,
  };
  return (
    <Timeline
      label="Run history, oldest first"
      entries={run.history.map((entry, index) => {
        const position = positionOf(entry);
        const step = context.steps && position ? stepAtPosition(context.steps, position) : undefined;
        const type = step?.type ?? detailOf(entry).type;
        const typeWords = type ? (STEP_TYPE_LABEL[type as StepType] ?? type) : null;
        return {
          key: String(index),
          at: entry.at,
          kind: entry.kind,
          label: historyLabel(entry),
          extra:
            position && entry.kind !== "enrolled" ? (
              <span className="muted">
                {positionLabel(position, context.steps ?? undefined)}
                {typeWords ? ` · ${typeWords}` : ""}
              </span>
            ) : null,
          text: <HistorySentence entry={entry} index={index} context={context} />,
          detail: entry.detail,
        };
      })}
    />
  );
}
