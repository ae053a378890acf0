import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignOutButton } from "./_components/sign-out-button.tsx";
import { dashboardCaller, dashboardContext } from "./_lib/dashboard.ts";

export const metadata: Metadata = { title: "Dashboard" };

/** The dashboard's entry: the first workspace's home (its overview, or Messages for support staff), or the sign-in page. */
export default async function Home() {
  const { principal } = await dashboardContext(null);
  if (principal?.kind !== "user") redirect("/sign-in");
  const [first] = await (await dashboardCaller(null)).workspaces.mine();
  if (first) redirect(`/w/${encodeURIComponent(first.id)}`);
  return (
    <main className="centered">
      <div className="card">
        <h1>No workspace yet</h1>
        <p>You are signed in as {principal.email}, but you are not a member of any workspace. Ask an admin of your workspace to add you.</p>
        <SignOutButton />
      </div>
    </main>
  );
}
