import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import { UsageView } from "./_components/usage-view.tsx";

export const metadata: Metadata = { title: "Usage" };

type Props = { params: Promise<{ workspace: string }> };

/** This month's usage against the limits, day by day; the same for admins and support staff. */
export default async function UsagePage({ params }: Props) {
  const { workspace } = await params;
  await requireMember(workspace);
  return <UsageView />;
}
