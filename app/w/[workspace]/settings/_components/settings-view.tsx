"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";

const CHANNELS = [
  { channel: "whatsapp", label: "WhatsApp" },
  { channel: "email", label: "E-mail" },
] as const;

/** The workspace's time zone (quiet hours of contacts without one) and its frequency caps per channel. */
export function SettingsView() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const settings = useQuery(trpc.settings.get.queryOptions());
  const update = useMutation(
    trpc.settings.update.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.settings.get.queryFilter()) }),
  );
  const fault = update.isError ? apiFault(update.error) : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const caps = Object.fromEntries(
      CHANNELS.map(({ channel }) => {
        const count = text(`${channel}_count`);
        return [channel, count ? { count: Number(count), period: text(`${channel}_period`) || "P1D" } : null];
      }),
    );
    update.mutate({ time_zone: text("time_zone"), caps });
  }

  const header = (
    <div className="page-header">
      <div>
        <h1>Settings</h1>
        <p className="muted">How journeys treat the people in them.</p>
      </div>
    </div>
  );
  if (settings.isPending || settings.isError) {
    return (
      <>
        {header}
        <QueryState query={settings} what="the settings" />
      </>
    );
  }
  const current = settings.data;
  const error = (param: string) => faultAt(fault, param);
  return (
    <>
      {header}
      <form className="stack" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-zone`}>Time zone</label>
        <input
          id={`${id}-zone`}
          name="time_zone"
          defaultValue={current.time_zone}
          list={`${id}-zones`}
          aria-invalid={error("time_zone") ? true : undefined}
        />
        <datalist id={`${id}-zones`}>
          {Intl.supportedValuesOf("timeZone").map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
        <p className="muted">
          A journey&apos;s quiet hours are read in the contact&apos;s own time zone, else in the zone of its phone number&apos;s country
          when that country has one, else in this one.
        </p>
        {error("time_zone") && (
          <p className="field-error" role="alert">
            {error("time_zone")}
          </p>
        )}
        <fieldset>
          <legend>Frequency caps</legend>
          <p className="muted">
            At most this many journey messages per contact in any rolling period (at most 30 days, such as P1D or PT12H). Messages sent
            through the API count toward the cap but are never held back by it. Leave the count empty for no cap.
          </p>
          {CHANNELS.map(({ channel, label }) => (
            <div key={channel} className="filters">
              <div className="field">
                <label htmlFor={`${id}-${channel}-count`}>{label}: messages</label>
                <input
                  id={`${id}-${channel}-count`}
                  name={`${channel}_count`}
                  type="number"
                  min={1}
                  max={1000}
                  defaultValue={current.caps[channel]?.count ?? ""}
                  aria-invalid={error(`caps.${channel}.count`) ? true : undefined}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-${channel}-period`}>
                  <span className="visually-hidden">{label} messages </span>per period
                </label>
                <input
                  id={`${id}-${channel}-period`}
                  name={`${channel}_period`}
                  defaultValue={current.caps[channel]?.period ?? "P1D"}
                  aria-invalid={error(`caps.${channel}.period`) ? true : undefined}
                />
              </div>
              {(error(`caps.${channel}.count`) || error(`caps.${channel}.period`)) && (
                <p className="field-error" role="alert">
                  {error(`caps.${channel}.count`) ?? error(`caps.${channel}.period`)}
                </p>
              )}
            </div>
          ))}
        </fieldset>
        {fault && !fault.param && (
          <p className="field-error" role="alert">
            {fault.message}
          </p>
        )}
        <div>
          <button type="submit" className="button primary" disabled={update.isPending}>
            {update.isPending ? "Saving…" : "Save"}
          </button>
          {update.isSuccess && <span role="status"> Saved.</span>}
        </div>
      </form>
    </>
  );
}
