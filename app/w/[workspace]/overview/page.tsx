import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/overview.css";
import { OverviewView } from "./_components/overview-view.tsx";

export const metadata: Metadata = { title: "Overview" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace at a glance: volume, outcomes, what needs attention, first steps. */
export default async function OverviewPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <OverviewView workspace={workspace} canManage={member.role === "admin"} />;
}
