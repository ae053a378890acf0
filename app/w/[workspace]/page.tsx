import { redirect } from "next/navigation";

type Props = { params: Promise<{ workspace: string }> };

/** A workspace opens on its first section. */
export default async function WorkspaceHome({ params }: Props) {
  const { workspace } = await params;
  redirect(`/w/${encodeURIComponent(workspace)}/keys`);
}
