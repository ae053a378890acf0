import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import { ContactDetail } from "../_components/contact-detail.tsx";

export const metadata: Metadata = { title: "Contact" };

type Props = { params: Promise<{ workspace: string; id: string }> };

/** The server's `not_found` AppError, as the caller throws it (wrapped in a TRPCError). */
function isNotFound(err: unknown): boolean {
  const e = err as { type?: unknown; cause?: { type?: unknown } } | null;
  return e?.type === "not_found" || e?.cause?.type === "not_found";
}

export default async function ContactPage({ params }: Props) {
  const { workspace, id } = await params;
  const member = await requireMember(workspace);
  // An unknown id, or another workspace's contact, is a 404 page; the view loads the data itself.
  try {
    await (await dashboardCaller(workspace)).contacts.get({ id });
  } catch (err) {
    if (isNotFound(err)) notFound();
    throw err;
  }
  return <ContactDetail workspace={workspace} id={id} canManage={member.role === "admin"} />;
}
