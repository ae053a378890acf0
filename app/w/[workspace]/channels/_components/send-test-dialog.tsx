"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { FieldError } from "@/app/_components/form-feedback.tsx";
import { Modal } from "@/app/_components/modal.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useFocusFirstInvalid } from "@/app/_components/use-focus-invalid.ts";
import type { Channel } from "@/server/channels/channel-schemas.ts";
import type { SendTestResult } from "@/server/channels/send-test-message.ts";
import type { Template } from "@/server/whatsapp/template-schemas.ts";
import "@/app/styles/whatsapp.css";
import { CHANNEL_FORMS } from "./channel-forms.tsx";
import { Loading } from "@/app/_components/query-state.tsx";
import { DialogFooter } from "@/app/_components/dialog-footer.tsx";

/**
 * "Send a test message to…": one real provider call with the given text (or, on WhatsApp, an
 * approved template of the channel), answered with the provider's outcome. Nothing is
 * recorded (no message, no usage).
 */
export function SendTestDialog({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const trpc = useTRPC();
  const form = useRef<HTMLFormElement>(null);
  const send = useMutation(trpc.channels.sendTest.mutationOptions());
  const spec = CHANNEL_FORMS[channel.type].test;
  const withTemplates = spec.templates === true;
  const [kind, setKind] = useState<"text" | "template">("text");
  const [chosen, setChosen] = useState("");
  const templates = useQuery({
    ...trpc.whatsapp.templates.queryOptions({ channel_id: channel.id, status: "approved", limit: 100 }),
    enabled: withTemplates && Boolean(channel.settings.waba_id),
  });
  const template = templates.data?.find((t) => `${t.name}:${t.language}` === chosen);
  const fault = send.isError ? apiFault(send.error) : null;
  const toError = faultAt(fault, "to");
  const textError = faultAt(fault, "text");
  const templateError = faultAt(fault, "template");
  const general = fault && !toError && !textError && !templateError ? fault.message : null;
  useFocusFirstInvalid(form, send.error);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const to = String(data.get("to") ?? "");
    if (kind === "template") {
      const parameters = Object.fromEntries((template?.parameters ?? []).map((p) => [p, String(data.get(`parameter-${p}`) ?? "")]));
      send.mutate({
        channel_id: channel.id,
        to,
        template: { name: template?.name ?? "", language: template?.language ?? "", parameters },
      });
    } else {
      send.mutate({ channel_id: channel.id, to, text: String(data.get("text") ?? "") });
    }
  }

  return (
    <Modal title={`Send a test message with “${channel.name}”`} onClose={onClose}>
      <form ref={form} className="stack" onSubmit={onSubmit} noValidate>
        <p className="muted">
          One real {spec.what} through this channel&apos;s provider. It is not recorded as a message and spends no quota.
          {spec.note && ` ${spec.note}`}
        </p>
        {withTemplates && (
          <fieldset className="choices">
            <legend>Send</legend>
            <label className="choice">
              <input type="radio" name="kind" checked={kind === "text"} onChange={() => setKind("text")} />
              Text
            </label>
            <label className="choice">
              <input type="radio" name="kind" checked={kind === "template"} onChange={() => setKind("template")} />
              Template
            </label>
          </fieldset>
        )}
        <div className="field">
          <label htmlFor="test-to">{spec.to.label}</label>
          <input
            id="test-to"
            name="to"
            type={spec.to.type}
            required
            maxLength={320}
            placeholder={spec.to.placeholder}
            autoComplete="off"
            autoFocus
            aria-invalid={toError ? true : undefined}
            aria-describedby={toError ? "test-to-error" : undefined}
          />
          <FieldError id="test-to-error" message={toError} />
        </div>
        {kind === "template" ? (
          <TemplateFields
            templates={templates.data}
            loading={templates.isPending && templates.fetchStatus !== "idle"}
            chosen={chosen}
            onChoose={setChosen}
            error={templateError}
          />
        ) : (
          <div className="field">
            <label htmlFor="test-text">Text</label>
            <textarea
              id="test-text"
              name="text"
              required
              rows={3}
              maxLength={4096}
              defaultValue="Test message from svc"
              aria-invalid={textError ? true : undefined}
              aria-describedby={textError ? "test-text-error" : undefined}
            />
            <FieldError id="test-text-error" message={textError} />
          </div>
        )}
        {general && (
          <p role="alert" className="error">
            {general}
          </p>
        )}
        <section aria-label="Provider's answer" aria-live="polite">
          {send.data && <ProviderAnswer result={send.data} />}
        </section>
        <DialogFooter>
          <button type="button" className="button" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="button primary" disabled={send.isPending}>
            {send.isPending ? "Sending…" : "Send test message"}
          </button>
        </DialogFooter>
      </form>
    </Modal>
  );
}

/** The approved templates of the channel, and a text for each parameter of the one chosen. */
function TemplateFields(props: {
  templates: Template[] | undefined;
  loading: boolean;
  chosen: string;
  onChoose: (key: string) => void;
  error: string | null;
}) {
  const { templates, loading, chosen, onChoose, error } = props;
  const template = templates?.find((t) => `${t.name}:${t.language}` === chosen);
  if (loading) return <Loading what="the templates" />;
  if (!templates?.length) return <p className="note">This channel has no approved templates. Sync them on the channel first.</p>;
  return (
    <>
      <div className="field">
        <label htmlFor="test-template">Template</label>
        <select
          id="test-template"
          value={chosen}
          onChange={(e) => onChoose(e.target.value)}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "test-template-error" : undefined}
        >
          <option value="">Choose a template</option>
          {templates.map((t) => (
            <option key={t.id} value={`${t.name}:${t.language}`}>
              {t.name} ({t.language})
            </option>
          ))}
        </select>
        <FieldError id="test-template-error" message={error} />
      </div>
      {template && (
        <>
          <p className="template-preview">{template.body}</p>
          {template.parameters.map((p) => (
            <div className="field" key={`${chosen}-${p}`}>
              <label htmlFor={`test-parameter-${p}`}>
                Parameter <code>{p}</code>
              </label>
              <input id={`test-parameter-${p}`} name={`parameter-${p}`} required maxLength={1024} autoComplete="off" />
            </div>
          ))}
        </>
      )}
    </>
  );
}

const OUTCOME: Record<SendTestResult["outcome"], string> = {
  accepted: "Accepted by the provider",
  permanent: "Refused by the provider (permanent: a message would fail)",
  temporary: "Not accepted for now (temporary: a message would be retried)",
  unknown: "No answer (the provider may have taken it: a message would wait for its report, never be sent twice)",
};

function ProviderAnswer({ result }: { result: SendTestResult }) {
  const accepted = result.outcome === "accepted";
  const { detail } = result;
  return (
    <div className={accepted ? "provider-answer accepted" : "provider-answer refused"}>
      <p>
        <strong>{OUTCOME[result.outcome]}</strong>
      </p>
      <dl className="details">
        <dt>To</dt>
        <dd>
          <code>{result.to}</code>
        </dd>
        {accepted ? (
          <>
            <dt>Provider message ID</dt>
            <dd>
              <code>{result.provider_message_id}</code>
            </dd>
          </>
        ) : (
          <>
            <dt>Error</dt>
            <dd>{result.error}</dd>
          </>
        )}
        {result.retry_after_ms !== null && (
          <>
            <dt>Retry after</dt>
            <dd>{Math.ceil(result.retry_after_ms / 1000)} s</dd>
          </>
        )}
        {detail.status_code !== undefined && (
          <>
            <dt>Status code</dt>
            <dd>{detail.status_code}</dd>
          </>
        )}
        {detail.request_id && (
          <>
            <dt>Request ID</dt>
            <dd>
              <code>{detail.request_id}</code>
            </dd>
          </>
        )}
        {detail.duration_ms !== undefined && (
          <>
            <dt>Duration</dt>
            <dd>{detail.duration_ms} ms</dd>
          </>
        )}
      </dl>
      {detail.excerpt && (
        <details>
          <summary>Provider&apos;s reply</summary>
          <pre className="json">{detail.excerpt}</pre>
        </details>
      )}
    </div>
  );
}
