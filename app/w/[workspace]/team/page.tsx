import type { Metadata } from "next";
import { AdminOnly } from "@/app/_components/admin-only.tsx";
import { requireMember } from "@/app/_lib/dashboard.ts";
import { TeamView } from "./_components/team-view.tsx";

export const metadata: Metadata = { title: "Team" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's members and their roles: admins only. */
export default async function TeamPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  if (member.role !== "admin") return <AdminOnly title="Team" what="the team" />;
  return <TeamView currentUserId={member.userId} />;
}
