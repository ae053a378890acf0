import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import { ContactsView } from "./_components/contacts-view.tsx";

export const metadata: Metadata = { title: "Contacts" };

type Props = { params: Promise<{ workspace: string }> };

export default async function ContactsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  return <ContactsView workspace={workspace} canManage={member.role === "admin"} />;
}
