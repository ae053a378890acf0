import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { NONCE_HEADER } from "@/server/lib/security-headers.ts";
import { THEME_SCRIPT } from "./_lib/theme.ts";
import "./globals.css";
import "./styles/layout.css";
import "./styles/forms.css";
import "./styles/tables.css";
import "./styles/dialogs.css";

export const metadata: Metadata = {
  title: { default: "svc", template: "%s · svc" },
  description: "Messaging and journeys service",
};

// Reading the request's nonce renders every page per request: a prerendered page's scripts
// would carry no nonce, and the Content-Security-Policy would refuse them (D51).
export default async function RootLayout({ children }: { children: ReactNode }) {
  const nonce = (await headers()).get(NONCE_HEADER) ?? undefined;
  return (
    // data-theme is set by THEME_SCRIPT before React hydrates: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
