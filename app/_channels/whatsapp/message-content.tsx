"use client";

import { z } from "zod";
import { RawContent } from "../raw-content.tsx";

// The content as sent (server/providers/provider.ts `Content`): parsed here where it enters the page.
const ZWhatsAppContent = z.object({
  body: z.string().optional(),
  media_url: z.string().optional(),
  media_type: z.string().optional(),
});

export function WhatsAppMessageContent({ content }: { content: unknown }) {
  const parsed = ZWhatsAppContent.safeParse(content);
  return parsed.success ? <WhatsAppContent content={parsed.data} /> : <RawContent content={content} />;
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
