import { InAppNotFound } from "@/app/_components/in-app-not-found.tsx";

/** A workspace's unknown or forbidden page (notFound() in a page): answered 404, inside the workspace's menu and search. */
export default function WorkspaceNotFound() {
  return <InAppNotFound />;
}
