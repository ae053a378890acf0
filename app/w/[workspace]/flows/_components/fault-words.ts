import type { ApiFault } from "@/app/_components/api-error.ts";
import { CHANNEL_WORDS_OF } from "@/app/_channels/channel-words.ts";
import { STEP_LISTS, type Path, type StepList } from "@/server/flows/step-path.ts";

// The one place where the server's refusal of a flow document (a zod or service error whose
// `param` is the path of the fault, D37: `steps.2.then.0.whatsapp.body`) becomes what the editor
// shows: the step it belongs to (its position), the field inside that step, and a sentence in
// words that says what to do ("Write the message or add a media URL.").

export type FaultPlace = {
  /** The step's position (`[2, "then", 0]`), or null when the fault is not inside a step (the name, the trigger). */
  position: Path | null;
  /** The rest of the path: the field inside the step (`whatsapp.body`), or the document's member (`name`, `trigger.event`). */
  field: string;
};

const SIDES = new Set<string>(STEP_LISTS.filter((s) => !s.startsWith("paths.")));
const isIndex = (token: string | undefined) => token !== undefined && /^\d+$/.test(token);

/** Where a fault's `param` points: the step (walking branch, wait_for and split paths) and the field in it. */
export function faultPlace(param: string | null | undefined): FaultPlace | null {
  if (!param) return null;
  const tokens = param.split(".");
  if (tokens[0] !== "steps" || !isIndex(tokens[1])) return { position: null, field: param };
  const position: Path = [Number(tokens[1])];
  let i = 2;
  for (;;) {
    if (SIDES.has(tokens[i]!) && isIndex(tokens[i + 1])) {
      position.push(tokens[i] as StepList, Number(tokens[i + 1]));
      i += 2;
    } else if (tokens[i] === "paths" && isIndex(tokens[i + 1]) && tokens[i + 2] === "steps" && isIndex(tokens[i + 3])) {
      position.push(`paths.${tokens[i + 1]}.steps` as StepList, Number(tokens[i + 3]));
      i += 4;
    } else break;
  }
  return { position, field: tokens.slice(i).join(".") };
}

const capitalized = (text: string) => (text ? `${text[0]!.toUpperCase()}${text.slice(1)}` : text);
const sentence = (text: string) => capitalized(text.trim()).replace(/([^.!?])$/, "$1.");

const MATCH_PATH = "Name each property to match as a path such as order.id (letters, digits, _ and -, joined by dots).";
const EVENT_NAME = "Name the event in lowercase letters, digits, _ and . (such as order_paid).";

/** Field (or a pattern of fields) → what to do, given the server's own detail. The first that matches wins. */
const RULES: { field: RegExp; words: (detail: string, match: RegExpExecArray) => string | null }[] = [
  { field: /^name$/, words: () => "Name the flow." },
  { field: /^steps$/, words: (d) => (/at least one/.test(d) ? "Add at least one step." : null) },
  // A send step's content: each channel's own words (app/_channels/<type>/words.ts).
  ...Object.values(CHANNEL_WORDS_OF).flatMap((words) => words.faults),
  { field: /^channel_id$/, words: () => "Choose a connected channel of the step's type." },
  {
    field: /^duration$/,
    words: (d) =>
      /exactly one/.test(d) ? "Choose a duration or a date to wait until." : "Enter a duration such as PT1H (an hour) or P2D (two days).",
  },
  { field: /^until$/, words: () => "Choose the date and time to wait until." },
  { field: /^if\.has_tag$/, words: (d) => (/no tag/.test(d) ? "This tag no longer exists: choose another." : "Choose a tag.") },
  {
    field: /^(if\.field|key)$/,
    words: (d) => (/no custom field/.test(d) ? "This custom field no longer exists: choose another." : "Choose a custom field."),
  },
  { field: /^(if\.equals|value)$/, words: (d) => `Enter a value of the field's type: it ${d.replace(/\.$/, "")}.` },
  { field: /^if$/, words: () => "Choose a condition." },
  {
    field: /^(add|remove)(\.\d+)?$/,
    words: (d) =>
      /no tag/.test(d) ? "A tag of this step no longer exists: choose its tags again." : "Choose at least one tag to add or remove.",
  },
  { field: /^event$/, words: (d) => (/exactly one/.test(d) ? "Choose an event or a message outcome to wait for." : EVENT_NAME) },
  { field: /^(trigger|goal)\.event$/, words: () => EVENT_NAME },
  { field: /^timeout$/, words: () => "Enter a timeout such as P1D (a day), at most 90 days." },
  {
    field: /^lookback$/,
    words: (d) =>
      /event wait only/.test(d)
        ? "Remove the lookback: it applies to an event wait only."
        : "Enter a lookback such as PT1H, at most 7 days.",
  },
  {
    field: /^(goal\.)?match(\..+)?$/,
    words: (d) =>
      /event wait only/.test(d) ? "Remove the match: it applies to an event wait only." : /at most/.test(d) ? null : MATCH_PATH,
  },
  { field: /^paths$/, words: () => "A split needs 2 to 5 paths." },
  { field: /^paths\.(\d+)\.weight$/, words: (_, m) => `Give path ${Number(m[1]) + 1} a whole-number weight of 1 or more.` },
  { field: /^id$/, words: () => "Another step has this id: give this one another." },
];

/** The fault in words: what to do, at the field its `param` names. */
export function faultWords(fault: ApiFault): string {
  const place = faultPlace(fault.param);
  const prefix = fault.param ? `${fault.param}: ` : "";
  const detail = prefix && fault.message.startsWith(prefix) ? fault.message.slice(prefix.length) : fault.message;
  if (place) {
    if (/is not a known parameter/.test(detail)) return `“${place.field || fault.param}” is not part of this step: remove it.`;
    for (const rule of RULES) {
      const match = rule.field.exec(place.field);
      const words = match && rule.words(detail, match);
      if (words) return words;
    }
  }
  return sentence(detail);
}

/** The fault with its message in words (its `param` kept, so the editor marks the field). */
export function inWords(fault: ApiFault | null): ApiFault | null {
  return fault && { param: fault.param, message: faultWords(fault) };
}
