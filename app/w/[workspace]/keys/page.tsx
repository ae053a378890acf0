import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import { KeysView } from "./_components/keys-view.tsx";

export const metadata: Metadata = { title: "API keys" };

type Props = { params: Promise<{ workspace: string }> };

export default async function KeysPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <KeysView canManage={member.role === "admin"} />;
}
