import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import { ChannelsView } from "./_components/channels-view.tsx";

export const metadata: Metadata = { title: "Channels" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's provider connections; admins connect, test and disconnect them. */
export default async function ChannelsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <ChannelsView canManage={member.role === "admin"} />;
}
