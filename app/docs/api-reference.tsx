"use client";

import dynamic from "next/dynamic";
import "@scalar/api-reference-react/style.css";

// Scalar's API reference, rendered in the browser from /api/v1/openapi.json. Everything it
// needs is bundled: no fonts, telemetry, proxy or AI agent from Scalar's servers.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), {
  ssr: false,
  loading: () => <p className="docs-loading">Loading the API reference…</p>,
});

export function ApiReference() {
  return (
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
  );
}

// System fonts (the dashboard's), and room for the docs header above the sticky sidebar.
const CUSTOM_CSS = `
.scalar-app, .scalar-api-reference {
  --scalar-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --scalar-font-code: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  --scalar-custom-header-height: var(--docs-header-height, 3rem);
}
`;
