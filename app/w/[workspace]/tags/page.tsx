import type { Metadata } from "next";
import { requireMember } from "@/app/_lib/dashboard.ts";
import "@/app/styles/records.css";
import { FieldsSection } from "./_components/fields-section.tsx";
import { TagsSection } from "./_components/tags-section.tsx";

export const metadata: Metadata = { title: "Tags & fields" };

type Props = { params: Promise<{ workspace: string }> };

/** The workspace's tags and custom fields; admins create them, support staff read them. */
export default async function TagsAndFieldsPage({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  const canManage = member.role === "admin";
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Tags &amp; fields</h1>
          <p className="muted">
            Tags group contacts; custom fields hold more about each contact and fill the <code>{"{{key}}"}</code> placeholders of messages.
          </p>
        </div>
      </div>
      {!canManage && <p className="note">You have read-only access to this workspace&apos;s tags and fields. Ask an admin to add one.</p>}
      <TagsSection canManage={canManage} />
      <FieldsSection canManage={canManage} />
    </>
  );
}
