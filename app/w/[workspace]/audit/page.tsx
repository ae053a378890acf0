import type { Metadata } from "next";
import { AdminOnly } from "@/app/_components/admin-only.tsx";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/messaging.css";
import "@/app/styles/audit.css";
import { AuditView } from "./_components/audit-view.tsx";

export const metadata: Metadata = { title: "Audit log" };

type Props = { params: Promise<{ workspace: string }> };

/** Who changed what in the workspace, newest first: admins only. */
export default async function AuditPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  if (member.role !== "admin") return <AdminOnly title="Audit log" what="the audit log" />;
  return <AuditView workspace={workspace} />;
}
