import { checkChannelDomain } from "../../channels/email/domain.ts";
import { getWorkspaceOrThrow } from "../../workspaces/create-workspace.ts";
import { requiredString, withDatabase, type Command } from "../command.ts";

const STATUS_TEXT = { verified: "verified", missing: "MISSING", mismatch: "MISMATCH", lookup_failed: "NO ANSWER" } as const;

/**
 * D74/D85/D92: `svc channel dns --workspace W --channel ID`: the DNS records an e-mail channel's
 * owner publishes, each checked now (`DNS_SERVERS`, or the system's resolvers).
 */
export const channelDns: Command = {
  name: "channel dns",
  summary: "List and check the DNS records of an e-mail channel's domain (DKIM, SPF, DMARC, MX)",
  usage: "channel dns --workspace W --channel ID",
  help: [
    ["--workspace W", "the workspace identifier"],
    ["--channel ID", "the e-mail channel (ch_…)"],
    ["", "Each record's status: verified, missing, mismatch or lookup_failed (DNS did not answer: nothing is known)."],
    ["", "Then DMARC's alignment and policy, and ready: true only when DKIM is verified, SPF passes, and DMARC is published and aligned."],
    ["", "Lookups use DNS_SERVERS when set."],
  ],
  options: { workspace: { type: "string" }, channel: { type: "string" } },
  flags: { workspace: "--workspace", channel: "--channel", channel_id: "--channel" },
  async run(values) {
    const workspace = requiredString(values, "workspace");
    const channel = requiredString(values, "channel");
    const checked = await withDatabase(async (database) => {
      await getWorkspaceOrThrow(database, workspace);
      return checkChannelDomain(database, workspace, channel);
    });
    // What the text shows, --json carries (D92): what DNS answered where it differs, and why a lookup failed.
    const shown = (r: (typeof checked.records)[number]) => (r.status !== "verified" && r.found.length ? r.found : null);
    const records = checked.records.map((r) => ({
      type: r.type,
      name: r.name,
      value: r.value,
      status: r.status,
      ...(shown(r) ? { found: shown(r) } : {}),
      ...(r.error ? { error: r.error } : {}),
    }));
    const text = checked.records.flatMap((r) => [
      `${STATUS_TEXT[r.status].padEnd(9)} ${r.type.padEnd(4)} ${r.name}`,
      `          ${r.value}`,
      ...(shown(r) ? [`          found: ${shown(r)!.join(" | ")}`] : []),
      ...(r.error ? [`          lookup failed: ${r.error}`] : []),
    ]);
    const verdict = [
      "",
      `DMARC:    ${checked.dmarc.aligned ? "aligned" : "NOT ALIGNED"}, policy ${checked.dmarc.policy ?? "none published"}`,
      `Ready:    ${checked.ready ? "yes" : "NO"}`,
    ];
    return {
      json: { records, dmarc: checked.dmarc, ready: checked.ready },
      text: [`DNS records of ${checked.channel_id}:`, "", ...text, ...verdict].join("\n"),
    };
  },
};
