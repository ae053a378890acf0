import type { Metadata } from "next";
import type { ReactNode } from "react";
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
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
