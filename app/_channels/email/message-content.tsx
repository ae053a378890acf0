"use client";

import { useState } from "react";
import { z } from "zod";
import { escapeHtml } from "@/server/lib/html.ts";
import { RawContent } from "../raw-content.tsx";

// The content as sent (server/providers/provider.ts `Content`): parsed here where it enters the page.
const ZEmailContent = z.object({
  subject: z.string(),
  html: z.string(),
  reply_to: z.string().optional(),
  preview_text: z.string().optional(),
});

export function EmailMessageContent({ content }: { content: unknown }) {
  const parsed = ZEmailContent.safeParse(content);
  return parsed.success ? <EmailContent content={parsed.data} /> : <RawContent content={content} />;
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
