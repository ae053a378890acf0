"use client";

import { useQuery } from "@tanstack/react-query";
import { useParams, usePathname } from "next/navigation";
import { Link } from "./link.tsx";
import { useTRPC } from "./trpc.ts";

/** What a detail page of each section shows, and where its list is. */
const KINDS: Record<string, { noun: string; list: string }> = {
  messages: { noun: "message", list: "All messages" },
  contacts: { noun: "contact", list: "All contacts" },
  flows: { noun: "flow", list: "All flows" },
  webhooks: { noun: "webhook endpoint", list: "All webhook endpoints" },
};

type Said = { title: string; detail: string; back: { href: string; label: string } };

/** What was looked for, in words, from the page's path: `/w/<ws>/messages/<id>` → "No message <id> in <ws>". */
export function notFoundWords(path: string, base: string, workspaceName: string): Said {
  const [section = "", id, ...rest] = path
    .slice(base.length + 1)
    .split("/")
    .map(decodeURIComponent);
  const kind = KINDS[section];
  const home = { href: base, label: `${workspaceName}'s home` };
  if (section === "flows" && id === "new" && rest.length === 0) {
    return {
      title: "Only admins can create flows",
      detail: `You are a support member of ${workspaceName}: you can read its flows and their runs. Ask an admin to create a flow.`,
      back: { href: `${base}/flows`, label: "All flows" },
    };
  }
  if (kind && id && rest.length === 0) {
    return {
      title: `No ${kind.noun} ${id} in ${workspaceName}`,
      detail: `It may belong to another workspace, or the id may be mistyped. Search for it with the search box above (ids, phone numbers, e-mail addresses and names).`,
      back: { href: `${base}/${section}`, label: kind.list },
    };
  }
  return {
    title: `No page ${path.slice(base.length) || "/"} in ${workspaceName}`,
    detail: "The link may be out of date. Use the menu or the search box above.",
    back: home,
  };
}

/** A workspace's page that does not exist, or is not the member's: inside the dashboard, with its menu and search. */
export function InAppNotFound() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const { workspace = "" } = useParams<{ workspace: string }>();
  const { data: workspaces } = useQuery(trpc.workspaces.mine.queryOptions());
  const name = workspaces?.find((w) => w.id === workspace)?.name ?? workspace;
  const base = `/w/${encodeURIComponent(workspace)}`;
  const said = notFoundWords(pathname, base, name);
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{said.title}</h1>
      <p>{said.detail}</p>
      <p>
        <Link href={said.back.href}>{said.back.label}</Link>
      </p>
    </section>
  );
}
