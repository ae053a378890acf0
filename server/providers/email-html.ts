import { escapeHtml } from "../lib/html.ts";

// What the SMTP client adds to an e-mail's HTML (operations.md "Provider endpoints", RFC 8058):
// a hidden preheader with the preview text, an unsubscribe footer and the open-tracking
// image; and the plain-text alternative made from the HTML.

export type TrackingLinks = { openUrl: string; unsubscribeUrl: string };

const PREHEADER_STYLE =
  "display:none!important;visibility:hidden;mso-hide:all;font-size:1px;line-height:1px;color:transparent;max-height:0;max-width:0;opacity:0;overflow:hidden";

export function preheader(previewText: string): string {
  return `<span style="${PREHEADER_STYLE}">${escapeHtml(previewText)}</span>`;
}

export function unsubscribeFooter(unsubscribeUrl: string): string {
  return `<p style="margin-top:24px;font-size:12px;line-height:18px;color:#6b7280">Don't want these e-mails? <a href="${escapeHtml(unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a>.</p>`;
}

export function trackingImage(openUrl: string): string {
  return `<img src="${escapeHtml(openUrl)}" width="1" height="1" alt="">`;
}

/** The HTML as sent: preheader first, then the author's HTML, the footer and the image last. */
export function decorateHtml(html: string, links: TrackingLinks, previewText?: string): string {
  const top = previewText ? preheader(previewText) : "";
  const bottom = `${unsubscribeFooter(links.unsubscribeUrl)}${trackingImage(links.openUrl)}`;
  const bodyOpen = /<body\b[^>]*>/i.exec(html);
  const withTop =
    top && bodyOpen
      ? `${html.slice(0, bodyOpen.index + bodyOpen[0].length)}${top}${html.slice(bodyOpen.index + bodyOpen[0].length)}`
      : `${top}${html}`;
  const bodyClose = withTop.search(/<\/body\s*>/i);
  return bodyClose >= 0 ? `${withTop.slice(0, bodyClose)}${bottom}${withTop.slice(bodyClose)}` : `${withTop}${bottom}`;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " ", "#39": "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+\d*);/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * A readable plain-text version of an HTML e-mail: scripts, styles and hidden preheaders
 * dropped, blocks on their own lines, links as `text (url)`, list items with a dash.
 */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<(head|style|script|title)\b[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<span\b[^>]*display\s*:\s*none[^>]*>[\s\S]*?<\/span\s*>/gi, "")
    .replace(/<img\b[^>]*>/gi, (img) => {
      const alt = /\balt\s*=\s*"([^"]*)"/i.exec(img)?.[1];
      return alt ? `[${alt}]` : "";
    })
    .replace(/<a\b[^>]*?\bhref\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a\s*>/gi, (_, href: string, inner: string) => {
      const label = inner.replace(/<[^>]+>/g, "").trim();
      const url = decodeEntities(href);
      return !label || decodeEntities(label) === url || /^mailto:/i.test(url) ? decodeEntities(label) || url : `${label} (${url})`;
    })
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/?(p|div|h[1-6]|ul|ol|table|tr|blockquote|section|article|header|footer|hr)\b[^>]*>/gi, "\n\n")
    .replace(/<\/(td|th)\s*>/gi, " ")
    .replace(/<[^>]+>/g, "");
  return decodeEntities(text)
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
