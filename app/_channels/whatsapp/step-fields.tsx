"use client";

import type { SendStep } from "@/server/flows/flow-schemas.ts";
import { MEDIA_TYPES } from "@/server/providers/provider.ts";
import { TemplateStepFields, templateOnly } from "@/app/w/[workspace]/flows/_components/template-step-fields.tsx";
import type { DashboardChannel, StepContentProps } from "../dashboard-channel.ts";

/** A WhatsApp send step: its template (with its fallback, D43), and the body or media URL and type unless it only sends the template. */
function WhatsAppStepFields({ id, text, a11y, ...fields }: StepContentProps) {
  const { step, onChange } = fields;
  const mediaUrl = step.whatsapp?.media_url;
  return (
    <>
      <TemplateStepFields {...fields} />
      {!templateOnly(step) && (
        <>
          <div className="field">
            <label htmlFor={`${id}-body`}>Message</label>
            <textarea id={`${id}-body`} rows={3} {...text("whatsapp.body")} />
          </div>
          <div className="field-row">
            <div className="field">
              <label htmlFor={`${id}-media`}>
                Media URL<span className="muted"> (optional)</span>
              </label>
              <input
                id={`${id}-media`}
                type="url"
                value={mediaUrl ?? ""}
                placeholder="https://example.com/picture.jpg"
                onChange={(e) => {
                  const whatsapp: NonNullable<SendStep["whatsapp"]> = { ...step.whatsapp, media_url: e.target.value.trim() };
                  if (!whatsapp.media_url) {
                    delete whatsapp.media_url;
                    delete whatsapp.media_type;
                  }
                  onChange({ ...step, whatsapp });
                }}
                {...a11y("whatsapp.media_url")}
              />
            </div>
            {mediaUrl !== undefined && (
              <div className="field">
                <label htmlFor={`${id}-media-type`}>Media type</label>
                <select
                  id={`${id}-media-type`}
                  value={step.whatsapp?.media_type ?? ""}
                  onChange={(e) => {
                    const whatsapp = { ...step.whatsapp };
                    if (e.target.value) whatsapp.media_type = e.target.value as (typeof MEDIA_TYPES)[number];
                    else delete whatsapp.media_type;
                    onChange({ ...step, whatsapp });
                  }}
                  {...a11y("whatsapp.media_type")}
                >
                  <option value="">Choose a type</option>
                  {MEDIA_TYPES.map((t) => (
                    <option key={t} value={t}>
                      {t}
                    </option>
                  ))}
                </select>
              </div>
            )}
          </div>
        </>
      )}
    </>
  );
}

export const whatsappStep: DashboardChannel["step"] = {
  empty: { whatsapp: { body: "" } },
  texts: {
    "whatsapp.body": {
      get: (s: SendStep) => s.whatsapp?.body,
      set: (s: SendStep, body: string) => ({ ...s, whatsapp: { ...s.whatsapp, body } }),
    },
  },
  takesPlaceholders: (step) => !templateOnly(step),
  Fields: WhatsAppStepFields,
};
