"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { usePathname, useRouter } from "next/navigation";
import type { AppRouter } from "@/server/api/root.ts";
import { useTRPC } from "./trpc.ts";

export type MyWorkspace = inferRouterOutputs<AppRouter>["workspaces"]["mine"][number];

/** The same page in another workspace: `/w/<current>/keys` becomes `/w/<next>/keys`. */
function pathIn(pathname: string, workspace: string): string {
  return pathname.replace(/^\/w\/[^/]+/, `/w/${encodeURIComponent(workspace)}`);
}

/** Picks the workspace the dashboard shows; the choice lives in the URL (/w/<workspace>/…). */
export function WorkspaceSwitcher({ current, initial }: { current: string; initial: MyWorkspace[] }) {
  const trpc = useTRPC();
  const { data: workspaces = initial } = useQuery({ ...trpc.workspaces.mine.queryOptions(), initialData: initial });
  const pathname = usePathname();
  const router = useRouter();
  const active = workspaces.find((w) => w.id === current);

  if (workspaces.length < 2) {
    return (
      <p className="workspace-name">
        <span className="muted">Workspace</span> {active?.name ?? current}
      </p>
    );
  }
  return (
    <div className="switcher">
      <label htmlFor="workspace-switcher" className="muted">
        Workspace
      </label>
      <select id="workspace-switcher" value={current} onChange={(event) => router.push(pathIn(pathname, event.target.value))}>
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name} ({w.role})
          </option>
        ))}
      </select>
    </div>
  );
}
