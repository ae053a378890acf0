"use client";

import type { Message } from "@/server/messaging/message-schemas.ts";

import { useState } from "react";
import { z } from "zod";
import { SEGMENT_UNITS } from "@/server/channels/sms/segments.ts";
import { escapeHtml } from "@/server/lib/html.ts";

// The content as sent (placeholders filled), stored as JSON (server/providers/provider.ts
// `Content`): parsed here where it enters the page.

const ZWhatsAppContent = z.object({
  body: z.string().optional(),
  media_url: z.string().optional(),
  media_type: z.string().optional(),
});

const ZEmailContent = z.object({
  subject: z.string(),
  html: z.string(),
  reply_to: z.string().optional(),
  preview_text: z.string().optional(),
});

const ZSmsContent = z.object({ body: z.string() });

type Props = { channel: Message["channel"]; content: unknown; sms: Message["sms"] };

export function MessageContent({ channel, content, sms }: Props) {
  if (channel === "whatsapp") {
    const parsed = ZWhatsAppContent.safeParse(content);
    return parsed.success ? <WhatsAppContent content={parsed.data} /> : <RawContent content={content} />;
  }
  if (channel === "sms") {
    const parsed = ZSmsContent.safeParse(content);
    return parsed.success ? <SmsContent body={parsed.data.body} sms={sms} /> : <RawContent content={content} />;
  }
  const parsed = ZEmailContent.safeParse(content);
  return parsed.success ? <EmailContent content={parsed.data} /> : <RawContent content={content} />;
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

function WhatsAppContent({ content }: { content: z.infer<typeof ZWhatsAppContent> }) {
  return (
    <div className="panel" aria-label="WhatsApp content" role="region">
      <dl className="details">
        {content.media_url && (
          <>
            <dt>Media</dt>
            <dd>
              <span className="badge">{content.media_type ?? "media"}</span>{" "}
              <a href={content.media_url} target="_blank" rel="noopener noreferrer">
                {content.media_url}
              </a>
            </dd>
          </>
        )}
        <dt>{content.media_url ? "Caption" : "Text"}</dt>
        <dd>{content.body ? <p className="wa-body">{content.body}</p> : <span className="muted">None</span>}</dd>
      </dl>
    </div>
  );
}

/** A policy for the preview: no scripts (the sandbox forbids them too), inline styles, and images only when asked. */
function previewPolicy(remoteImages: boolean): string {
  const images = remoteImages ? "data: https: http:" : "data:";
  return `default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:`;
}

function EmailContent({ content }: { content: z.infer<typeof ZEmailContent> }) {
  const [remoteImages, setRemoteImages] = useState(false);
  // The author's HTML in a sandbox with no permission at all (`sandbox=""`: no scripts, no
  // forms, a unique origin), with remote images blocked unless the reader asks for them, so
  // opening a message tells no third party anything.
  const srcDoc =
    `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeHtml(previewPolicy(remoteImages))}">` +
    `<base target="_blank">` +
    content.html;
  return (
    <div className="panel" aria-label="E-mail content" role="region">
      <dl className="details">
        <dt>Subject</dt>
        <dd>{content.subject || <span className="muted">No subject</span>}</dd>
        {content.preview_text && (
          <>
            <dt>Preview text</dt>
            <dd>{content.preview_text}</dd>
          </>
        )}
        {content.reply_to && (
          <>
            <dt>Reply-To</dt>
            <dd>{content.reply_to}</dd>
          </>
        )}
      </dl>
      <div className="email-preview-bar">
        <label className="choice">
          <input type="checkbox" checked={remoteImages} onChange={(event) => setRemoteImages(event.target.checked)} />
          Show remote images
        </label>
        <span className="muted">The unsubscribe footer and the open-tracking image are added when sending; they are not shown here.</span>
      </div>
      <iframe className="email-preview" title="E-mail body" sandbox="" referrerPolicy="no-referrer" srcDoc={srcDoc} />
      <details>
        <summary>HTML source</summary>
        <pre className="json">{content.html}</pre>
      </details>
    </div>
  );
}

function RawContent({ content }: { content: unknown }) {
  return (
    <div className="panel">
      <p className="muted">This content has an unexpected shape; here it is as stored.</p>
      <pre className="json">{JSON.stringify(content, null, 2)}</pre>
    </div>
  );
}
