import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isNotFoundError } from "@/app/_components/not-found-error.ts";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import { MessageDetail } from "../_components/message-detail.tsx";

export const metadata: Metadata = { title: "Message" };

type Props = { params: Promise<{ workspace: string; id: string }> };

export default async function MessagePage({ params }: Props) {
  const { workspace, id } = await params;
  const member = await requireMember(workspace);
  // An unknown id, or another workspace's message, is a 404 page; the view loads the data itself.
  try {
    await (await dashboardCaller(workspace)).messages.detail({ id });
  } catch (err) {
    if (isNotFoundError(err)) notFound();
    throw err;
  }
  return <MessageDetail workspace={workspace} id={id} canCancel={member.role === "admin"} />;
}
