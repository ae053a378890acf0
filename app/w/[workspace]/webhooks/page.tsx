import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/webhooks.css";
import { WebhooksView } from "./_components/webhooks-view.tsx";

export const metadata: Metadata = { title: "Webhooks" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's webhook endpoints; admins add, change, test and remove them, support staff only read. */
export default async function WebhooksPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <WebhooksView workspace={workspace} canManage={member.role === "admin"} />;
}
