"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { When } from "@/app/_components/when.tsx";
import type { Channel } from "@/server/channels/channel-schemas.ts";
import type { ChannelDomainCheck, CheckedRecord, DnsRecord, RecordKind, RecordStatus } from "@/server/channels/email/domain.ts";
import "@/app/styles/email-domain.css";

/** What each record is for, in a line. */
const PURPOSE: Record<RecordKind, { title: string; why: string }> = {
  dkim: { title: "DKIM", why: "The public key receivers use to check the signature this channel puts on every mail." },
  spf: { title: "SPF", why: "Allows your SMTP relay to send mail for this domain." },
  dmarc: {
    title: "DMARC",
    why: "Tells receivers what to do with mail that fails DKIM and SPF. Start with p=none; move to quarantine or reject once all your mail passes.",
  },
  mx: { title: "MX", why: "Routes bounces and complaints to this service, which stops mailing the addresses that bounced." },
};

const STATUS_WORDS: Record<RecordStatus, string> = {
  verified: "Verified: published as listed.",
  missing: "Missing: nothing is published at this name yet.",
  mismatch: "Mismatch: something else is published at this name.",
  lookup_failed: "Lookup failed: DNS did not answer, so nothing is known of this record; check again later.",
};

/**
 * An e-mail channel's domain: the DNS records to publish (each with copy buttons) and, on
 * "Check now", each record's state as DNS answers it now.
 */
export function ChannelDomain({ channel }: { channel: Channel }) {
  const trpc = useTRPC();
  const headingId = useId();
  const domain = useQuery(trpc.channels.domain.queryOptions({ channel_id: channel.id }));
  const check = useMutation(trpc.channels.dnsCheck.mutationOptions());
  const checked = new Map(check.data?.records.map((r) => [r.kind, r]));

  return (
    <section className="channel-domain" aria-labelledby={headingId}>
      <div className="channel-domain-head">
        <h3 id={headingId}>Domain</h3>
        {domain.data && (
          <button
            type="button"
            className="button small"
            aria-label={`Check now the DNS records of ${channel.name}`}
            disabled={check.isPending}
            onClick={() => check.mutate({ id: channel.id })}
          >
            {check.isPending ? "Checking…" : "Check now"}
          </button>
        )}
      </div>
      <p className="muted hint">
        Publish these records at the DNS host of {domain.data ? <code>{domain.data.from_domain}</code> : "your domain"} so that receivers
        trust this channel&apos;s mail.
      </p>
      <p role="status" className={check.data?.records.every((r) => r.status === "verified") ? "ok" : undefined}>
        {check.data ? (
          <>
            {summary(check.data.records)} Checked <When value={check.data.checked_at} />.
          </>
        ) : (
          ""
        )}
      </p>
      {check.isError && (
        <p role="alert" className="error">
          Could not check the records: {apiFault(check.error).message}
        </p>
      )}
      {check.data && <SenderReadiness channel={channel} check={check.data} />}
      <QueryState query={domain} what="the domain's records" />
      {domain.data && !domain.data.records.some((r) => r.kind === "dkim") && (
        <p className="note">
          This channel does not sign its mail with DKIM. Connect it again with a DKIM selector to sign every mail, which many mailbox
          providers require.
        </p>
      )}
      {domain.data && (
        <ul className="dns-records" aria-label={`DNS records of ${channel.name}`}>
          {domain.data.records.map((record) => (
            <Record key={record.kind} channel={channel} record={record} checked={checked.get(record.kind)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * Whether mailbox providers will take this channel's bulk mail: each requirement of Gmail's,
 * Yahoo's and Microsoft's sender rules, met or not, and the one verdict.
 */
function SenderReadiness({ channel, check }: { channel: Channel; check: ChannelDomainCheck }) {
  const headingId = useId();
  const status = (kind: RecordKind) => check.records.find((r) => r.kind === kind)?.status;
  const unknown = (kind: RecordKind) => status(kind) === "lookup_failed";
  const spfName = check.records.find((r) => r.kind === "spf")?.name ?? check.from_domain;
  const rows: { label: string; met: boolean; unknown: boolean; detail: string }[] = [
    {
      label: "DKIM signature",
      met: status("dkim") === "verified",
      unknown: unknown("dkim"),
      detail: !status("dkim")
        ? "This channel does not sign its mail: connect it again with a DKIM selector."
        : status("dkim") === "verified"
          ? "The public key is published as listed."
          : "Publish the DKIM record below as listed.",
    },
    {
      label: "SPF",
      met: status("spf") === "verified",
      unknown: unknown("spf"),
      detail:
        status("spf") === "verified" ? `${spfName} allows your relay.` : `Publish the SPF record below at ${spfName}, allowing your relay.`,
    },
    {
      label: "DMARC published",
      met: check.dmarc.policy !== null,
      unknown: unknown("dmarc"),
      detail: check.dmarc.policy ? `Policy: ${check.dmarc.policy}.` : "Publish the DMARC record below.",
    },
    {
      label: "DMARC aligned",
      met: check.dmarc.aligned,
      unknown: unknown("dkim") && unknown("spf"),
      detail: check.dmarc.aligned
        ? `A verified DKIM signature or SPF domain belongs to ${check.from_domain}.`
        : `Neither a verified DKIM signature nor a verified SPF domain belongs to ${check.from_domain}.`,
    },
  ];
  return (
    <section className="sender-readiness" aria-labelledby={headingId}>
      <div className="sender-readiness-head">
        <h4 id={headingId}>Sender readiness</h4>
        <span
          className={`badge ${check.ready ? "dns-verified" : "dns-mismatch"}`}
          aria-label={`${channel.name} is ${check.ready ? "" : "not "}ready to send bulk mail`}
        >
          {check.ready ? "Ready" : "Not ready"}
        </span>
      </div>
      <p className="muted">Gmail, Yahoo and Microsoft require all four of bulk senders, and reject mail that fails them.</p>
      <ul className="readiness-list">
        {rows.map((row) => (
          <li key={row.label} className={row.met ? "met" : "unmet"}>
            <span className="readiness-mark" aria-hidden="true">
              {row.met ? "✓" : row.unknown ? "?" : "✗"}
            </span>
            <span>
              <strong>{row.label}</strong>: {row.met ? "yes" : row.unknown ? "unknown, DNS did not answer" : "no"}.{" "}
              <span className="muted">{row.detail}</span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Record({ channel, record, checked }: { channel: Channel; record: DnsRecord; checked: CheckedRecord | undefined }) {
  const title = PURPOSE[record.kind].title;
  const headingId = useId();
  return (
    <li className="dns-record">
      <div className="dns-record-head">
        <h4 id={headingId}>{title}</h4>
        {checked && <span className={`badge dns-${checked.status}`}>{checked.status}</span>}
      </div>
      <p className="muted">{PURPOSE[record.kind].why}</p>
      <dl className="details">
        <dt>Type</dt>
        <dd>
          <code>{record.type}</code>
        </dd>
        <dt>Name</dt>
        <dd>
          <div className="copy-inline">
            <code>{record.name}</code>
            <CopyButton value={record.name} label={`Copy the name of the ${title} record of ${channel.name}`} />
          </div>
        </dd>
        <dt>Value</dt>
        <dd>
          <div className="copy-inline">
            <code className="dns-value">{record.value}</code>
            <CopyButton value={record.value} label={`Copy the value of the ${title} record of ${channel.name}`} />
          </div>
        </dd>
        {checked && (
          <>
            <dt>State</dt>
            <dd className={`dns-state dns-${checked.status}`}>
              {checked.error
                ? `Lookup failed: ${checked.error}, so nothing is known of this record; check again later.`
                : STATUS_WORDS[checked.status]}
              {checked.status === "mismatch" && checked.found.length > 0 && (
                <ul className="dns-found" aria-label={`Published at ${record.name}`}>
                  {checked.found.map((found, i) => (
                    <li key={i}>
                      <code>{found}</code>
                    </li>
                  ))}
                </ul>
              )}
            </dd>
          </>
        )}
      </dl>
    </li>
  );
}

function summary(records: CheckedRecord[]): string {
  const verified = records.filter((r) => r.status === "verified").length;
  return verified === records.length ? "Every record is published as listed." : `${verified} of ${records.length} records verified.`;
}
