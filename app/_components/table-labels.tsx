"use client";

import { useEffect } from "react";

// Below 640 px every dashboard table (.table-wrap, app/styles/tables.css) turns into stacked
// rows: each row a block, each cell on its own line after its column's name. The names come
// from the table's own header row, copied here into each body and footer cell's data-label (the CSS
// shows it with ::before), so no table has to repeat its headers. One observer for the whole
// dashboard, dialogs included, labels tables as they render and re-render.

function labelTable(table: HTMLTableElement) {
  const header = table.tHead?.rows[0];
  if (!header) return;
  // Column index → header text, across colspans.
  const names: string[] = [];
  for (const cell of Array.from(header.cells)) {
    const text = cell.textContent?.trim() ?? "";
    for (let n = 0; n < cell.colSpan; n++) names.push(text);
  }
  for (const body of [...Array.from(table.tBodies), ...(table.tFoot ? [table.tFoot] : [])]) {
    for (const row of Array.from(body.rows)) {
      let column = 0;
      for (const cell of Array.from(row.cells)) {
        const name = names[column] ?? "";
        if (cell.colSpan > 1 || !name) cell.removeAttribute("data-label");
        else if (cell.getAttribute("data-label") !== name) cell.setAttribute("data-label", name);
        column += cell.colSpan;
      }
    }
  }
}

function labelAll(root: ParentNode) {
  root.querySelectorAll<HTMLTableElement>(".table-wrap table").forEach(labelTable);
}

export function TableLabels() {
  useEffect(() => {
    labelAll(document);
    let pending = 0;
    const observer = new MutationObserver(() => {
      // Many mutations of one render are labelled once, in the next frame.
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        labelAll(document);
      });
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(pending);
    };
  }, []);
  return null;
}
