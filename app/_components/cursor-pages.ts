import { useState } from "react";

/**
 * A cursor-paged list's pages seen so far (the first page has no cursor): the cursor to ask
 * for, the page number, and the moves of its Pager. `restart` goes back to the first page,
 * as a change of filter must.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    after: cursors[cursors.length - 1],
    page: cursors.length,
    previous: () => setCursors((c) => c.slice(0, -1)),
    next: (cursor: string | null | undefined) => {
      if (cursor) setCursors((c) => [...c, cursor]);
    },
    restart: () => setCursors([undefined]),
  };
}
