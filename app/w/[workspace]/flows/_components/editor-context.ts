import type { ApiFault } from "@/app/_components/api-error.ts";
import type { CustomField } from "@/server/fields/field-schemas.ts";
import type { Tag } from "@/server/tags/tag-schemas.ts";

/** What every step editor needs besides its step: the workspace's tags and fields, the last fault, read-only. */
export type EditorContext = {
  tags: Tag[];
  fields: CustomField[];
  fault: ApiFault | null;
  readOnly: boolean;
};

/**
 * The props of one control at `param` (e.g. `steps.2.whatsapp.body`): marked invalid when the
 * fault names it or, unless `exact`, a place inside it.
 */
export function controlA11y(context: EditorContext, param: string, errorId: string, exact = false) {
  const at = context.fault?.param;
  const invalid = Boolean(at && (at === param || (!exact && at.startsWith(`${param}.`))));
  return { "aria-invalid": invalid ? true : undefined, "aria-describedby": invalid ? errorId : undefined } as const;
}
