import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { isNotFoundError } from "@/app/_components/not-found-error.ts";
import { dashboardCaller, requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
// The contact's messages and runs use the inspector's and the flows' badges.
import "@/app/styles/messaging.css";
import "@/app/styles/flows.css";
import { ContactDetail } from "../_components/contact-detail.tsx";
import { WhatsAppConversation } from "./_components/whatsapp-conversation.tsx";

export const metadata: Metadata = { title: "Contact" };

type Props = { params: Promise<{ workspace: string; id: string }> };

export default async function ContactPage({ params }: Props) {
  const { workspace, id } = await params;
  const member = await requireMember(workspace);
  // An unknown id, or another workspace's contact, is a 404 page; the view loads the data itself.
  try {
    await (await dashboardCaller(workspace)).contacts.get({ id });
  } catch (err) {
    if (isNotFoundError(err)) notFound();
    throw err;
  }
  return (
    <>
      <ContactDetail workspace={workspace} id={id} canManage={member.role === "admin"} />
      <WhatsAppConversation contactId={id} />
    </>
  );
}
