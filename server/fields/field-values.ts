import { invalid } from "../lib/errors.ts";
import type { FIELD_TYPES } from "./field-schemas.ts";

type FieldType = (typeof FIELD_TYPES)[number];

export const MAX_TEXT_VALUE = 10_000;

/**
 * D14: a value of the field's type, or the error `fields.<key>`: `number` a finite JSON number,
 * `date` a real calendar date `YYYY-MM-DD`, `boolean` a JSON boolean, `text` a string.
 */
export function checkFieldValue(key: string, type: FieldType, value: unknown, param = `fields.${key}`): string | number | boolean {
  switch (type) {
    case "number":
      if (typeof value === "number" && Number.isFinite(value)) return value;
      throw invalid("invalid_field_value", `${param} must be a number.`, param);
    case "boolean":
      if (typeof value === "boolean") return value;
      throw invalid("invalid_field_value", `${param} must be true or false.`, param);
    case "date":
      if (typeof value === "string" && isCalendarDate(value)) return value;
      throw invalid("invalid_field_value", `${param} must be a date written YYYY-MM-DD.`, param);
    case "text":
      if (typeof value === "string" && value.length <= MAX_TEXT_VALUE) return value;
      throw invalid("invalid_field_value", `${param} must be text of at most ${MAX_TEXT_VALUE} characters.`, param);
  }
}

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === value;
}
