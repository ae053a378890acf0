"use client";

import { z } from "zod";
import { SEGMENT_UNITS } from "@/server/channels/sms/segments.ts";
import type { Message } from "@/server/messaging/message-schemas.ts";
import { RawContent } from "../raw-content.tsx";

// The content as sent (server/providers/provider.ts `Content`): parsed here where it enters the page.
const ZSmsContent = z.object({ body: z.string() });

export function SmsMessageContent({ content, message }: { content: unknown; message: Message }) {
  const parsed = ZSmsContent.safeParse(content);
  return parsed.success ? <SmsContent body={parsed.data.body} sms={message.sms} /> : <RawContent content={content} />;
}

/** D97: an SMS's text, with the segments and encoding it went in (an inbound SMS has none). */
function SmsContent({ body, sms }: { body: string; sms: Message["sms"] }) {
  return (
    <div className="panel" aria-label="SMS content" role="region">
      <dl className="details">
        <dt>Text</dt>
        <dd>{body ? <p className="wa-body">{body}</p> : <span className="muted">None</span>}</dd>
        {sms && (
          <>
            <dt>Segments</dt>
            <dd>
              {sms.segments} {sms.segments === 1 ? "segment" : "segments"}, {sms.encoding}
              <span className="muted">
                {" "}
                ({SEGMENT_UNITS[sms.encoding].single} characters fit in one; a longer text goes in parts of{" "}
                {SEGMENT_UNITS[sms.encoding].part})
              </span>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
