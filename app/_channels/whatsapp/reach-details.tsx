"use client";

import { When } from "@/app/_components/when.tsx";
import type { Reachability } from "@/server/messaging/reachability.ts";

/** A contact's reachability on WhatsApp beyond the verdict: the 24-hour window (D43) and whether a template is needed. */
export function WhatsAppReachDetails({ reach }: { reach: Reachability["whatsapp"] }) {
  return (
    <dl className="details">
      <dt>24-hour window</dt>
      <dd>
        {reach.window.open ? "Open" : "Closed"}
        {reach.window.expires_at && (
          <>
            {reach.window.open ? ", closes " : ", closed "}
            <When value={reach.window.expires_at} />
          </>
        )}
        {!reach.window.expires_at && !reach.window.open && " (the contact never wrote)"}
      </dd>
      <dt>Template needed</dt>
      <dd>{reach.template_required ? "Yes" : "No"}</dd>
    </dl>
  );
}
