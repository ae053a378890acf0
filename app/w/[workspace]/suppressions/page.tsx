import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import { SuppressionsView } from "./_components/suppressions-view.tsx";

export const metadata: Metadata = { title: "Suppressions" };

type Props = { params: Promise<{ workspace: string }> };

/** The live suppression list: addresses e-mail is not sent to; admins add and remove entries, support staff read them. */
export default async function SuppressionsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <SuppressionsView workspace={workspace} canManage={member.role === "admin"} />;
}
