import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { isNotFoundError } from "@/app/_components/not-found-error.ts";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";
import { API_PREFIX } from "@/server/api/rest-paths.ts";
import { env } from "@/server/lib/env.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/flows.css";
import { FlowPage } from "../_components/flow-page.tsx";
import { Loading } from "@/app/_components/query-state.tsx";

export const metadata: Metadata = { title: "Flow" };

type Props = { params: Promise<{ workspace: string; id: string }> };

/** One flow: its editor and lifecycle (admins), its runs and their histories (everyone). */
export default async function FlowDetailPage({ params }: Props) {
  const { workspace, id } = await params;
  const member = await requireMember(workspace);
  // An unknown id, or another workspace's flow, is a 404 page; the view loads the data itself.
  try {
    await (await dashboardCaller(workspace)).flows.get({ flow_id: id });
  } catch (err) {
    if (isNotFoundError(err)) notFound();
    throw err;
  }
  // The view reads `?created=1` from the URL (useSearchParams).
  return (
    <Suspense fallback={<Loading what="the flow" />}>
      <FlowPage workspace={workspace} flowId={id} canManage={member.role === "admin"} apiBaseUrl={`${env().appUrl}${API_PREFIX}`} />
    </Suspense>
  );
}
