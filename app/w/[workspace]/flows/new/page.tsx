import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/flows.css";
import { FlowPage } from "../_components/flow-page.tsx";
import { Loading } from "@/app/_components/query-state.tsx";

export const metadata: Metadata = { title: "New flow" };

type Props = { params: Promise<{ workspace: string }> };

/** The editor of a new flow: admins only. */
export default async function NewFlowPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  if (member.role !== "admin") notFound();
  return (
    <Suspense fallback={<Loading what="the editor" />}>
      <FlowPage workspace={workspace} flowId={null} canManage apiBaseUrl="" />
    </Suspense>
  );
}
