import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/flows.css";
import { FlowsView } from "./_components/flows-view.tsx";

export const metadata: Metadata = { title: "Flows" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's flows; admins create, edit and move them, support staff only read. */
export default async function FlowsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <FlowsView workspace={workspace} canManage={member.role === "admin"} />;
}
