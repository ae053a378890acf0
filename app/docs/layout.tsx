import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./docs.css";

export const metadata: Metadata = {
  title: { default: "API docs", template: "%s · svc API docs" },
};

// The public documentation (D29 links here): no sign-in, its own header.
export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <div className="docs">
      <header className="docs-header">
        <Link href="/docs" className="docs-brand">
          svc API
        </Link>
        <nav aria-label="Documentation">
          <ul>
            <li>
              <Link href="/docs/getting-started">Getting started</Link>
            </li>
            <li>
              <Link href="/docs">Reference</Link>
            </li>
            <li>
              <Link href="/docs/errors">Errors</Link>
            </li>
            <li>
              <Link href="/docs/webhooks">Webhooks</Link>
            </li>
            <li>
              <Link href="/docs/whatsapp">WhatsApp</Link>
            </li>
            <li>
              <Link href="/docs/email">E-mail</Link>
            </li>
            <li>
              <Link href="/docs/journeys">Journeys</Link>
            </li>
            <li>
              <Link href="/docs/usage">Usage and costs</Link>
            </li>
            <li>
              <a href="/api/v1/openapi.json">openapi.json</a>
            </li>
          </ul>
        </nav>
        <Link href="/" className="docs-dashboard">
          Dashboard <span aria-hidden="true">→</span>
        </Link>
      </header>
      {children}
    </div>
  );
}
