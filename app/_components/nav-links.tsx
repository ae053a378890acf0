"use client";

import { Link } from "@/app/_components/link.tsx";
import { usePathname } from "next/navigation";
import { useId, useState } from "react";

/** The dashboard's sections; later areas are added here. */
const SECTIONS = [
  { segment: "overview", label: "Overview" },
  { segment: "messages", label: "Messages" },
  { segment: "contacts", label: "Contacts" },
  { segment: "suppressions", label: "Suppressions" },
  { segment: "tags", label: "Tags & fields" },
  { segment: "flows", label: "Flows" },
  { segment: "channels", label: "Channels" },
  { segment: "webhooks", label: "Webhooks" },
  { segment: "usage", label: "Usage" },
  { segment: "keys", label: "API keys" },
  { segment: "team", label: "Team", adminOnly: true },
  { segment: "audit", label: "Audit log", adminOnly: true },
  { segment: "settings", label: "Settings", adminOnly: true },
] as const satisfies { segment: string; label: string; adminOnly?: boolean }[];

/**
 * The section links. Below 768 px (app/styles/layout.css) they fold behind a Menu button that
 * says whether they are shown (aria-expanded); following a link folds them again.
 */
export function NavLinks({ workspace, role }: { workspace: string; role: "admin" | "support" }) {
  const pathname = usePathname();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const base = `/w/${encodeURIComponent(workspace)}`;
  const sections = SECTIONS.filter((s) => role === "admin" || !("adminOnly" in s && s.adminOnly));
  const current = sections.find(({ segment }) => pathname === `${base}/${segment}` || pathname.startsWith(`${base}/${segment}/`));
  return (
    <>
      <button type="button" className="menu-button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> Menu{current ? <span className="muted">: {current.label}</span> : null}
      </button>
      <ul id={listId} data-open={open}>
        {sections.map(({ segment, label }) => {
          const href = `${base}/${segment}`;
          return (
            <li key={segment}>
              <Link href={href} aria-current={current?.segment === segment ? "page" : undefined} onClick={() => setOpen(false)}>
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}
