"use client";

import dynamic from "next/dynamic";
import { useEffect, useRef } from "react";
import "@scalar/api-reference-react/style.css";

// Scalar's API reference, rendered in the browser from /api/v1/openapi.json. Everything it
// needs is bundled: no fonts, telemetry, proxy or AI agent from Scalar's servers.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="docs-loading">Loading the API reference…</p>,
});

/**
 * Scalar's markup as axe-core reads it has faults the reader cannot fix by configuration
 * (issue 38: 71 serious or critical findings): `aria-selected` on sidebar buttons, icon-only
 * buttons without a name, a tablist without tabs, `aria-label`s that differ from the visible
 * text, a scrolling list that cannot take focus. They are mended in place each time Scalar
 * renders; colours are set by CUSTOM_CSS.
 */
export function mendScalar(root: HTMLElement): void {
  for (const el of root.querySelectorAll<HTMLElement>("button[aria-selected]")) {
    if (el.getAttribute("aria-selected") === "true") el.setAttribute("aria-current", "true");
    el.removeAttribute("aria-selected");
  }
  for (const el of root.querySelectorAll<HTMLElement>('button[role="search"]')) {
    el.removeAttribute("role");
  }
  for (const el of root.querySelectorAll<HTMLElement>("button")) {
    const label = el.getAttribute("aria-label");
    if (shownText(el)) {
      // A name from the button's own words: an `aria-label` that differs only hides them.
      if (label) el.removeAttribute("aria-label");
    } else if (!label && !el.getAttribute("aria-labelledby") && !el.title) {
      el.setAttribute("aria-label", /copy/i.test(el.className) ? "Copy" : "Open");
    }
  }
  // Links of the reference's header (an icon and a word) hide the word on a phone: the word
  // becomes the link's name at every width, equal to the text where it shows (link-name).
  for (const el of root.querySelectorAll<HTMLElement>("a[href]:not([aria-label])")) {
    const words = (el.textContent ?? "").replace(/\s+/g, " ").trim();
    if (words && el.querySelector("svg")) el.setAttribute("aria-label", words);
  }
  // The client-library tabs share their list with a "more" menu button, which a tablist cannot
  // hold (aria-required-children): the list becomes a toolbar of buttons, the chosen one current.
  for (const el of root.querySelectorAll<HTMLElement>('[role="tablist"]')) {
    const tabs = el.querySelectorAll<HTMLElement>('[role="tab"]');
    if (el.querySelectorAll("button, a[href], input, select").length === tabs.length && tabs.length > 0) continue;
    el.setAttribute("role", "toolbar");
    for (const tab of tabs) tab.removeAttribute("role");
  }
  for (const el of root.querySelectorAll<HTMLElement>("ul.endpoints")) {
    if (!el.hasAttribute("tabindex")) el.tabIndex = 0;
  }
  for (const el of root.querySelectorAll<HTMLElement>("pre")) {
    if (!el.hasAttribute("tabindex") && el.scrollHeight > el.clientHeight) el.tabIndex = 0;
  }
}

/** The words a button gives assistive technology: its text without what is not displayed or is hidden from it. */
function shownText(el: HTMLElement): string {
  let text = "";
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? "";
    if (!(node instanceof HTMLElement)) return;
    if (node.getAttribute("aria-hidden") === "true" || getComputedStyle(node).display === "none") return;
    node.childNodes.forEach(walk);
  };
  el.childNodes.forEach(walk);
  return text.trim();
}

export function ApiReference() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    // Mended in the observer's callback, before the browser runs any other task (a paint, a
    // click, an accessibility check): a frame later, a reader could meet the faults. The
    // mend's own changes are taken off the queue so they do not call it again.
    const observer = new MutationObserver(() => {
      mendScalar(root);
      observer.takeRecords();
    });
    observer.observe(root, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ["aria-selected", "role", "aria-label"],
    });
    mendScalar(root);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref}>
      <ApiReferenceReact
        configuration={{
          url: "/api/v1/openapi.json",
          withDefaultFonts: false,
          telemetry: false,
          agent: { disabled: true },
          showDeveloperTools: "never",
          hideClientButton: false,
          documentDownloadType: "json",
          defaultOpenFirstTag: true,
          operationTitleSource: "summary",
          customCss: CUSTOM_CSS,
        }}
      />
    </div>
  );
}

// System fonts (the dashboard's), and room for the docs header above the sticky sidebar.
const CUSTOM_CSS = `
.scalar-app, .scalar-api-reference {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  --scalar-custom-header-height: var(--docs-header-height, 3rem);
}
/* WCAG AA contrast (4.5:1) for every text colour Scalar uses, on its light and dark surfaces. */
.light-mode, .light-mode .scalar-app, .light-mode .scalar-api-reference {
  --scalar-color-1: #1b1f24;
  --scalar-color-2: #3d4650;
  --scalar-color-3: #505963;
  --scalar-color-accent: #1d4ed8;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-green: #166534;
  --scalar-color-orange: #9a3412;
  --scalar-color-yellow: #854d0e;
  --scalar-color-red: #b91c1c;
  --scalar-color-purple: #6b21a8;
  --scalar-sidebar-color-2: #3d4650;
  --scalar-sidebar-search-color: #3d4650;
}
.dark-mode, .dark-mode .scalar-app, .dark-mode .scalar-api-reference {
  --scalar-color-1: #f1f3f5;
  --scalar-color-2: #d0d5db;
  --scalar-color-3: #b4bcc6;
  --scalar-color-accent: #8fb2ff;
  --scalar-color-blue: #8fb2ff;
  --scalar-color-green: #6ee7a0;
  --scalar-color-orange: #fdba74;
  --scalar-color-yellow: #fde68a;
  --scalar-color-red: #fca5a5;
  --scalar-color-purple: #d8b4fe;
  --scalar-sidebar-color-2: #d0d5db;
  --scalar-sidebar-search-color: #d0d5db;
}
.sidebar-search-placeholder, .badge { color: var(--scalar-color-2) !important; }
`;
