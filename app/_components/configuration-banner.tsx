import { Link } from "@/app/_components/link.tsx";
import type { ConfigurationProblem } from "@/server/overview/configuration-problems.ts";

/**
 * On every page of a workspace: the channels and webhook endpoints that cannot work until the
 * operator fixes the server's configuration, each linked to its page, with the fix.
 */
export function ConfigurationBanner({ workspace, problems }: { workspace: string; problems: ConfigurationProblem[] }) {
  if (problems.length === 0) return null;
  const ws = encodeURIComponent(workspace);
  return (
    <section className="config-banner" role="alert" aria-label="Configuration problems">
      <h2>
        {problems.length === 1
          ? "One thing cannot work until the server's configuration is fixed"
          : `${problems.length} things cannot work until the server's configuration is fixed`}
      </h2>
      <ul>
        {problems.map((p) => (
          <li key={`${p.kind}:${p.id}`}>
            <strong>
              {p.kind === "channel" ? (
                <Link href={`/w/${ws}/channels`}>Channel {p.label}</Link>
              ) : (
                <Link href={`/w/${ws}/webhooks/${encodeURIComponent(p.id)}`}>Webhook endpoint {p.label}</Link>
              )}
            </strong>
            : {p.fix}
          </li>
        ))}
      </ul>
    </section>
  );
}
