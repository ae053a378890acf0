import type { ReactNode } from "react";
import { AppShell } from "@/app/_components/app-shell.tsx";
import { ConfigurationBanner } from "@/app/_components/configuration-banner.tsx";
import { DashboardProviders } from "@/app/_components/trpc-provider.tsx";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";

type Props = { children: ReactNode; params: Promise<{ workspace: string }> };

/** Every page of one workspace: only its members get in; tRPC calls carry its id. */
export default async function WorkspaceLayout({ children, params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  const caller = await dashboardCaller(workspace);
  const [workspaces, problems] = await Promise.all([caller.workspaces.mine(), caller.overview.problems()]);
  return (
    <DashboardProviders key={workspace} workspace={workspace}>
      <AppShell workspace={workspace} workspaces={workspaces} email={member.email} role={member.role}>
        <ConfigurationBanner workspace={workspace} problems={problems} />
        {children}
      </AppShell>
    </DashboardProviders>
  );
}
