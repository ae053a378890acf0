import { nonGsm7Characters, SEGMENT_UNITS, SMS_BODY_MAX, smsSegments } from "@/server/channels/sms/segments.ts";

const SHOWN_CHARACTERS = 5;

/**
 * D97: an SMS body's segments and encoding as it is typed, counted by the server's own function:
 * what each part holds, which characters force UCS-2, and the 1,600-character limit (D94).
 */
export function SmsCount({ id, body }: { id: string; body: string }) {
  const { encoding, units, segments } = smsSegments(body);
  const { single, part } = SEGMENT_UNITS[encoding];
  const room = segments === 1 ? single : segments * part;
  const outside = encoding === "UCS-2" ? nonGsm7Characters(body) : [];
  return (
    <div id={id} className="sms-count">
      <span className="hint" data-testid="sms-segments">
        {segments} {segments === 1 ? "segment" : "segments"} · {encoding} · {units}/{room} characters
      </span>
      {outside.length > 0 && (
        <span className="muted hint">
          {outside
            .slice(0, SHOWN_CHARACTERS)
            .map((c) => `“${c}”`)
            .join(", ")}
          {outside.length > SHOWN_CHARACTERS ? " and others" : ""} {outside.length === 1 ? "is" : "are"} outside the GSM-7 alphabet, so a
          segment holds {single} characters instead of {SEGMENT_UNITS["GSM-7"].single}.
        </span>
      )}
      {body.includes("{{") && (
        <span className="muted hint">Placeholders are counted as typed: the values they are filled with change the count.</span>
      )}
      {body.length > SMS_BODY_MAX && (
        <span className="error-text hint">
          Longer than {SMS_BODY_MAX.toLocaleString("en-US")} characters: the message would not be sent.
        </span>
      )}
    </div>
  );
}
