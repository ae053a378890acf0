"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, type FormEvent } from "react";
import { apiFault, faultAt } from "@/app/_components/api-error.ts";
import { QueryState } from "@/app/_components/query-state.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { CHANNEL_TYPES } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import { META_PRICING_CATEGORIES } from "@/server/usage/whatsapp-cost.ts";

/** Each channel's frequency cap (D67), in the registry's order. */
const CHANNELS = CHANNEL_TYPES.map((channel) => ({ channel, label: CHANNEL_LABEL[channel] }));

/** Meta's categories, then any other the workspace has a price for. */
const priceCategories = (prices: Record<string, string>) => [
  ...META_PRICING_CATEGORIES,
  ...Object.keys(prices).filter((c) => !(META_PRICING_CATEGORIES as readonly string[]).includes(c)),
];

/** A pricing category in words: "Authentication international". */
const categoryLabel = (category: string) => category.charAt(0).toUpperCase() + category.slice(1).replace(/_/g, " ");

/**
 * The workspace's time zone (quiet hours of contacts without one), its frequency caps per channel
 * and its WhatsApp prices (D89), as `svc workspace update` sets them, through the same service.
 */
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
    // A price left empty is not sent: the category keeps the price it has, or stays without one.
    const prices = Object.fromEntries(
      priceCategories(settings.data?.whatsapp_prices ?? {})
        .map((category) => [category, text(`price_${category}`)])
        .filter(([, amount]) => amount),
    );
    const currency = text("currency").toUpperCase();
    update.mutate({
      time_zone: text("time_zone"),
      caps,
      ...(Object.keys(prices).length ? { whatsapp_prices: prices } : {}),
      ...(currency ? { currency } : {}),
    });
  }

  const header = (
    <div className="page-header">
      <div>
        <h1>Settings</h1>
        <p className="muted">How journeys treat the people in them, and what WhatsApp messages cost.</p>
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
  // A price's or the currency's fault under the field's label, not the request's parameter path.
  const fieldError = (param: string, label: string) => {
    const message = error(param);
    return message && `${label}: ${message.replace(/^[\w.]+: /, "")}`;
  };
  return (
    <>
      {header}
      {/* Shows the settings as stored once they change (a price emptied before saving is kept, and shows again). */}
      <form className="stack" onSubmit={submit} noValidate key={JSON.stringify(current)}>
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
        <fieldset>
          <legend>WhatsApp prices</legend>
          <p className="muted" id={`${id}-prices-hint`}>
            What one charged WhatsApp message of each of Meta&apos;s pricing categories costs, for the estimated costs on the usage page and
            in a flow&apos;s statistics. A category without a price counts nothing; a price once set stays, so set 0 for a category that
            costs nothing.
          </p>
          <div className="filters">
            <div className="field">
              <label htmlFor={`${id}-currency`}>Currency</label>
              <input
                id={`${id}-currency`}
                name="currency"
                defaultValue={current.currency ?? ""}
                maxLength={3}
                autoCapitalize="characters"
                autoComplete="off"
                placeholder="USD"
                aria-invalid={error("currency") ? true : undefined}
                aria-describedby={error("currency") ? `${id}-currency-error` : undefined}
              />
              {error("currency") && (
                <p className="field-error" role="alert" id={`${id}-currency-error`}>
                  {fieldError("currency", "Currency")}
                </p>
              )}
            </div>
          </div>
          <div className="filters">
            {priceCategories(current.whatsapp_prices).map((category) => {
              const label = categoryLabel(category);
              const message = fieldError(`whatsapp_prices.${category}`, label);
              return (
                <div key={category} className="field">
                  <label htmlFor={`${id}-price-${category}`}>{label}</label>
                  <input
                    id={`${id}-price-${category}`}
                    name={`price_${category}`}
                    inputMode="decimal"
                    autoComplete="off"
                    defaultValue={current.whatsapp_prices[category] ?? ""}
                    aria-invalid={message ? true : undefined}
                    aria-describedby={message ? `${id}-price-${category}-error` : `${id}-prices-hint`}
                  />
                  {message && (
                    <p className="field-error" role="alert" id={`${id}-price-${category}-error`}>
                      {message}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
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
