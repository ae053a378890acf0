import { z } from "zod";

// The one error map of the service: what a validation failure says, in our own words, for
// every schema that does not give its own message. Installed once for the whole process (the
// REST facade, the dashboard's tRPC and the CLI all import server/lib/errors.ts, which loads
// this module). `param` is added in front by fromZodError, so messages read "<param>: …".

type Issue = Parameters<NonNullable<z.core.$ZodConfig["customError"]>>[0];

const UNITS: Record<string, string> = { string: "characters", array: "items", set: "items", file: "bytes" };

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  array: "an array",
  date: "a date",
  record: "an object",
};

const FORMAT_NAMES: Record<string, string> = {
  email: "an e-mail address",
  url: "a URL",
  datetime: "an ISO 8601 timestamp, such as 2026-11-21T10:00:00Z",
  date: "a date written YYYY-MM-DD",
  uuid: "a UUID",
  regex: "in the expected format",
};

/** The message of an absent parameter (zod drops the issue's input, so fromZodError reads this). */
export const REQUIRED = "is required";

const list = (values: readonly unknown[]) => values.map((v) => `\`${String(v)}\``).join(", ");

export function validationMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type": {
      if (issue.input === undefined) return REQUIRED;
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    }
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${list(issue.values)}` : `must be one of ${list(issue.values)}`;
    case "too_small": {
      const unit = UNITS[issue.origin];
      if (issue.origin === "string" && Number(issue.minimum) === 1) return "must not be empty";
      return unit ? `must have at least ${issue.minimum} ${unit}` : `must be at least ${issue.minimum}`;
    }
    case "too_big": {
      const unit = UNITS[issue.origin];
      return unit ? `must have at most ${issue.maximum} ${unit}` : `must be at most ${issue.maximum}`;
    }
    case "invalid_format":
      return `must be ${FORMAT_NAMES[issue.format] ?? `in ${issue.format} format`}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `${issue.keys.length === 1 ? "is not a known parameter" : "are not known parameters"} of this request`;
    case "invalid_union":
      return "does not match any of the accepted forms";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid item";
    default:
      return undefined;
  }
}

z.config({ customError: validationMessage });
