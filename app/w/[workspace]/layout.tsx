import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { AppShell } from "@/app/_components/app-shell.tsx";
import { ModeProvider } from "@/app/_components/mode-switch.tsx";
import { modeCookieName, parseMode } from "@/app/_lib/dashboard-mode.ts";
import { ConfigurationBanner } from "@/app/_components/configuration-banner.tsx";
import { DashboardProviders } from "@/app/_components/trpc-provider.tsx";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";

type Props = { children: ReactNode; params: Promise<{ workspace: string }> };

/** Every page of one workspace: only its members get in; tRPC calls carry its id. */
export default async function WorkspaceLayout({ children, params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  const caller = await dashboardCaller(workspace);
  // The test/live switch: the user's choice (their cookie), else the workspace's default.
  const chosen = parseMode((await cookies()).get(modeCookieName(member.userId))?.value);
  const [workspaces, problems, mode] = await Promise.all([
    caller.workspaces.mine(),
    caller.overview.problems(),
    chosen ?? caller.overview.defaultMode(),
  ]);
  return (
    <DashboardProviders key={workspace} workspace={workspace}>
      <ModeProvider userId={member.userId} initial={mode}>
        <AppShell workspace={workspace} workspaces={workspaces} email={member.email} role={member.role}>
          <ConfigurationBanner workspace={workspace} problems={problems} />
          {children}
        </AppShell>
      </ModeProvider>
    </DashboardProviders>
  );
}
