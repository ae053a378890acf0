import type { CSSProperties } from "react";
import type { Tag } from "@/server/tags/tag-schemas.ts";

/**
 * A tag's color as a small round swatch; a tag without a color gets an outlined one.
 * `decorative` when the tag's name is beside it (chips), so screen readers skip it.
 */
export function Swatch({ color, decorative = false }: { color: string | null; decorative?: boolean }) {
  const a11y = decorative
    ? ({ "aria-hidden": true } as const)
    : ({ role: "img", "aria-label": color ? `Color ${color}` : "No color" } as const);
  return <span className={color ? "swatch" : "swatch none"} style={color ? { backgroundColor: color } : undefined} {...a11y} />;
}

/** A contact's tags as chips in the tags' colors; ids of tags not (yet) loaded show as ids. */
export function TagChips({ ids, tags, empty = "" }: { ids: string[]; tags: ReadonlyMap<string, Tag>; empty?: string }) {
  if (ids.length === 0) return <span className="muted">{empty}</span>;
  return (
    <ul className="chips" aria-label="Tags">
      {ids.map((id) => {
        const tag = tags.get(id);
        const style = tag?.color ? ({ "--tag": tag.color } as CSSProperties) : undefined;
        return (
          <li key={id} className="tag-chip" style={style}>
            <Swatch color={tag?.color ?? null} decorative />
            {tag?.name ?? <code>{id}</code>}
          </li>
        );
      })}
    </ul>
  );
}
