import type { Metadata } from "next";
import { Link } from "./_components/link.tsx";
import { dashboardCaller, dashboardContext } from "./_lib/dashboard.ts";

export const metadata: Metadata = { title: "Not found" };

/** Any unknown address, and a workspace the user is not a member of: their workspaces to go back to. */
export default async function NotFound() {
  const { principal } = await dashboardContext(null);
  const workspaces = principal?.kind === "user" ? await (await dashboardCaller(null)).workspaces.mine() : [];
  return (
    <main className="centered">
      <div className="card stack">
        <h1>Nothing here</h1>
        <p>This page does not exist, or it belongs to a workspace you are not a member of.</p>
        {workspaces.length > 0 ? (
          <nav aria-label="Your workspaces">
            <ul>
              {workspaces.map((w) => (
                <li key={w.id}>
                  <Link href={`/w/${encodeURIComponent(w.id)}`}>{w.name}</Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : (
          <p>
            <Link href="/sign-in">Sign in</Link>
          </p>
        )}
      </div>
    </main>
  );
}
