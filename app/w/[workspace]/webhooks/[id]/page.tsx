import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import "@/app/styles/messaging.css";
import "@/app/styles/webhooks.css";
import { EndpointDetail } from "../_components/endpoint-detail.tsx";
import { Loading } from "@/app/_components/query-state.tsx";

export const metadata: Metadata = { title: "Webhook deliveries" };

type Props = { params: Promise<{ workspace: string; id: string }> };

/** One endpoint and its delivery log: admins and support staff read it; admins test and replay. */
export default async function WebhookEndpointPage({ params }: Props) {
  const { workspace, id } = await params;
  const member = await requireMember(workspace);
  // An unknown id, or another workspace's endpoint, is a 404 page; the view loads the data itself.
  const endpoints = await (await dashboardCaller(workspace)).webhooks.list();
  if (!endpoints.some((e) => e.id === id)) notFound();
  // The view reads its status filter from the URL (useSearchParams).
  return (
    <Suspense fallback={<Loading what="the delivery log" />}>
      <EndpointDetail workspace={workspace} endpointId={id} canManage={member.role === "admin"} />
    </Suspense>
  );
}
