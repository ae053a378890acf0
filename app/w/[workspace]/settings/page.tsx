import type { Metadata } from "next";
import { AdminOnly } from "@/app/_components/admin-only.tsx";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/messaging.css";
import { SettingsView } from "./_components/settings-view.tsx";

export const metadata: Metadata = { title: "Settings" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's time zone, frequency caps and WhatsApp prices: admins only. */
export default async function SettingsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  if (member.role !== "admin") return <AdminOnly title="Settings" what="the workspace's settings" />;
  return <SettingsView />;
}
