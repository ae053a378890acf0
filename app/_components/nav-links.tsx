"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The dashboard's sections; later areas are added here. */
const SECTIONS = [
  { segment: "messages", label: "Messages" },
  { segment: "contacts", label: "Contacts" },
  { segment: "tags", label: "Tags & fields" },
  { segment: "flows", label: "Flows" },
  { segment: "channels", label: "Channels" },
  { segment: "webhooks", label: "Webhooks" },
  { segment: "usage", label: "Usage" },
  { segment: "keys", label: "API keys" },
] as const;

export function NavLinks({ workspace }: { workspace: string }) {
  const pathname = usePathname();
  const base = `/w/${encodeURIComponent(workspace)}`;
  return (
    <ul>
      {SECTIONS.map(({ segment, label }) => {
        const href = `${base}/${segment}`;
        const current = pathname === href || pathname.startsWith(`${href}/`);
        return (
          <li key={segment}>
            <Link href={href} aria-current={current ? "page" : undefined}>
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
