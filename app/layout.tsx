import type { Metadata } from "next";
import type { ReactNode } from "react";
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

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // data-theme is set by THEME_SCRIPT before React hydrates: not a mismatch to report.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>{children}</body>
    </html>
  );
}
