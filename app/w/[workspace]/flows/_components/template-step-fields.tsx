"use client";

import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { SendStep } from "@/server/flows/flow-schemas.ts";
import type { Template } from "@/server/whatsapp/template-schemas.ts";
import { controlA11y } from "./editor-context.ts";
import "@/app/styles/whatsapp.css";
import type { StepFieldsProps } from "./step-fields.tsx";

type WhatsApp = NonNullable<SendStep["whatsapp"]>;

/** Whether the step sends only its template (no free-form content to send inside the window). */
export function templateOnly(step: SendStep): boolean {
  return step.whatsapp?.template !== undefined && step.whatsapp.fallback !== "template";
}

/** The step's WhatsApp content with another template (or none), its parameters' texts kept by name. */
function withTemplate(w: WhatsApp, template: Template | null): WhatsApp {
  const { template: before, fallback: _fallback, ...free } = w;
  if (!template) return { ...free, body: free.body ?? "" };
  const given = before?.parameters ?? {};
  const chosen = {
    name: template.name,
    language: template.language,
    ...(template.parameters.length
      ? { parameters: Object.fromEntries(template.parameters.flatMap((p) => (given[p] ? [[p, given[p]]] : []))) }
      : {}),
  };
  // From none: a message already written stays as what goes inside the window.
  if (!before) return free.body || free.media_url ? { ...free, template: chosen, fallback: "template" } : { template: chosen };
  return { ...w, template: chosen };
}

/**
 * A WhatsApp send step's template (D42, D43): an approved template of the channel that would
 * send (the step's channel, else the workspace's first WhatsApp channel), a text for each
 * of its parameters, and the fallback switch: the message inside the contact's 24-hour
 * window, the template outside it.
 */
export function TemplateStepFields({ step, onChange, param, errorId, context }: StepFieldsProps<SendStep>) {
  const id = useId();
  const trpc = useTRPC();
  const channels = useQuery(trpc.channels.list.queryOptions({ include_disconnected: false }));
  const templates = useQuery(trpc.whatsapp.templates.queryOptions({ limit: 100 }));
  const w: WhatsApp = step.whatsapp ?? {};
  const channelId = step.channel_id ?? channels.data?.find((c) => c.type === "whatsapp" && !c.disconnected_at)?.id;
  const usable = (templates.data ?? []).filter((t) => t.channel_id === channelId && t.status === "approved");
  const key = w.template ? `${w.template.name}:${w.template.language}` : "";
  const current = templates.data?.find((t) => t.channel_id === channelId && `${t.name}:${t.language}` === key);
  const a11y = (at: string) => controlA11y(context, `${param}.${at}`, errorId);
  const parameters = current?.parameters ?? Object.keys(w.template?.parameters ?? {});

  return (
    <div className="template-fields">
      <div className="field">
        <label htmlFor={`${id}-template`}>
          Template<span className="muted"> (needed outside the 24-hour window)</span>
        </label>
        <select
          id={`${id}-template`}
          value={key}
          onChange={(e) =>
            onChange({ ...step, whatsapp: withTemplate(w, usable.find((t) => `${t.name}:${t.language}` === e.target.value) ?? null) })
          }
          {...a11y("whatsapp.template")}
        >
          <option value="">No template</option>
          {key && !usable.some((t) => `${t.name}:${t.language}` === key) && (
            <option value={key}>
              {w.template!.name} ({w.template!.language}){current ? `: ${current.status}` : ""}
            </option>
          )}
          {usable.map((t) => (
            <option key={t.id} value={`${t.name}:${t.language}`}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
        {templates.data && usable.length === 0 && !key && (
          <span className="muted hint">No approved template on this WhatsApp channel: sync its templates on the Channels page.</span>
        )}
      </div>
      {w.template && (
        <>
          {current && <p className="template-preview">{current.body}</p>}
          {parameters.map((p) => (
            <div className="field" key={p}>
              <label htmlFor={`${id}-parameter-${p}`}>
                Parameter <code>{p}</code>
              </label>
              <input
                id={`${id}-parameter-${p}`}
                value={w.template?.parameters?.[p] ?? ""}
                placeholder="Text or {{placeholder}}"
                onChange={(e) => {
                  // An empty text is no text: the save names the parameter as missing.
                  const { [p]: _old, ...others } = w.template!.parameters ?? {};
                  const parameters = e.target.value ? { ...others, [p]: e.target.value } : others;
                  onChange({ ...step, whatsapp: { ...w, template: { ...w.template!, parameters } } });
                }}
                {...a11y(`whatsapp.template.parameters.${p}`)}
              />
            </div>
          ))}
          <label className="choice">
            <input
              type="checkbox"
              role="switch"
              checked={w.fallback === "template"}
              onChange={(e) =>
                onChange({
                  ...step,
                  whatsapp: e.target.checked ? { ...w, body: w.body ?? "", fallback: "template" } : { template: w.template! },
                })
              }
              {...a11y("whatsapp.fallback")}
            />
            Fallback: send a message while the contact&apos;s 24-hour window is open, this template once it has closed
          </label>
        </>
      )}
    </div>
  );
}
