import { redirect } from "next/navigation";
import { requireMember } from "@/app/_lib/dashboard.ts";

type Props = { params: Promise<{ workspace: string }> };

/** A workspace opens on its overview for admins; support staff, who answer people, on Messages. */
export default async function WorkspaceHome({ params }: Props) {
  const { workspace } = await params;
  const member = await requireMember(workspace);
  redirect(`/w/${encodeURIComponent(workspace)}/${member.role === "admin" ? "overview" : "messages"}`);
}
