import type { Metadata } from "next";
import { Suspense } from "react";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import { MessagesView } from "./_components/messages-view.tsx";
import { Loading } from "@/app/_components/query-state.tsx";

export const metadata: Metadata = { title: "Messages" };

type Props = { params: Promise<{ workspace: string }> };

/** The message inspector: admins and support staff alike (it only reads). */
export default async function MessagesPage({ params }: Props) {
  const { workspace } = await params;
  await requireMember(workspace);
  // The view reads its filters from the URL (useSearchParams).
  return (
    <Suspense fallback={<Loading what="the messages" />}>
      <MessagesView workspace={workspace} />
    </Suspense>
  );
}
