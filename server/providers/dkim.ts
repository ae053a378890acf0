// D74: how an e-mail channel signs its mail with DKIM (nodemailer's signer). The key is made,
// checked and published by server/channels/email/domain.ts; its private half is sealed with
// the channel's other secrets.

/** Settings and secrets names under which a channel keeps its DKIM key. */
export const DKIM_SETTINGS = { selector: "dkim_selector", publicKey: "dkim_public_key" } as const;
export const DKIM_SECRET = "dkim_private_key";

/**
 * The header fields signed: nodemailer's list (RFC 6376 5.4) and List-Unsubscribe-Post, which
 * RFC 8058 wants covered by the signature with List-Unsubscribe for one-click unsubscribing,
 * and Feedback-ID (D92), which Gmail's feedback loop trusts only when it is signed.
 */
const SIGNED_HEADERS = [
  "From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding",
  "Content-ID:Content-Description:Resent-Date:Resent-From:Resent-Sender:Resent-To:Resent-Cc:Resent-Message-ID",
  "In-Reply-To:References:List-Id:List-Help:List-Unsubscribe:List-Unsubscribe-Post:List-Subscribe:List-Post:List-Owner:List-Archive",
  "Feedback-ID",
].join(":");

/** What nodemailer's `dkim` message option needs, or null when the channel does not sign. */
export function dkimSigning(
  settings: Record<string, string>,
  secrets: Record<string, string>,
): { domainName: string; keySelector: string; privateKey: string; headerFieldNames: string } | null {
  const selector = settings[DKIM_SETTINGS.selector];
  const privateKey = secrets[DKIM_SECRET];
  const from = settings.from;
  if (!selector || !privateKey || !from) return null;
  return { domainName: domainOf(from), keySelector: selector, privateKey, headerFieldNames: SIGNED_HEADERS };
}

/** The domain of an address, lower-cased. */
export const domainOf = (address: string) => address.slice(address.lastIndexOf("@") + 1).toLowerCase();
