"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { apiFault } from "@/app/_components/api-error.ts";
import { CopyButton } from "@/app/_components/copy-button.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import type { FlowDetails } from "./flow-labels.tsx";

const RESULTS = 5;

/**
 * Admins start a run from the flow's page: a contact found by name, phone or e-mail, enrolled
 * through the API's own enrollment, live or as a test run (test mode: its messages are
 * simulated and spend no quota).
 */
export function EnrollSection({ flow }: { flow: FlowDetails }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [text, setText] = useState("");
  const [q, setQ] = useState("");
  const [contactId, setContactId] = useState<string | null>(null);
  const [mode, setMode] = useState<"test" | "live">("test");
  const [started, setStarted] = useState<{ id: string; mode: "test" | "live" } | null>(null);
  const found = useQuery({
    ...trpc.contacts.search.queryOptions({ q, limit: RESULTS }),
    enabled: q !== "",
    placeholderData: keepPreviousData,
  });
  const start = useMutation(
    trpc.flows.startRun.mutationOptions({
      onSuccess: async (run) => {
        await Promise.all([
          queryClient.invalidateQueries(trpc.flows.runs.queryFilter()),
          queryClient.invalidateQueries(trpc.flows.modeStats.queryFilter()),
          queryClient.invalidateQueries(trpc.flows.all.queryFilter()),
        ]);
        setStarted({ id: run.id, mode });
      },
    }),
  );

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setContactId(null);
    setQ(text.trim());
  }

  function enroll(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setStarted(null);
    if (contactId) start.mutate({ flow_id: flow.id, contact_id: contactId, mode });
  }

  const active = flow.status === "active";
  const results = found.data?.items ?? [];
  return (
    <section className="section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>Enroll a contact</h2>
      {!active ? (
        <p className="muted">Only an active flow accepts contacts: activate it to enroll one.</p>
      ) : (
        <div className="panel stack enroll-panel">
          <form role="search" className="search" aria-label="Contacts to enroll" onSubmit={search}>
            <div className="field">
              <label htmlFor={`${id}-q`}>Find a contact</label>
              <input
                id={`${id}-q`}
                type="search"
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder="Name, phone or e-mail"
                maxLength={200}
                autoComplete="off"
              />
            </div>
            <button type="submit" className="button">
              Search
            </button>
          </form>
          {q && found.isPending && <p role="status">Searching…</p>}
          {found.isError && (
            <p role="alert" className="error">
              Could not search the contacts: {apiFault(found.error).message}
            </p>
          )}
          {q && found.data && results.length === 0 && <p className="empty">No contact matches “{q}”.</p>}
          {results.length > 0 && (
            <form className="stack" onSubmit={enroll} aria-label="Enroll a contact">
              <fieldset>
                <legend>Contact</legend>
                {results.map((c) => (
                  <label key={c.id} className="choice">
                    <input type="radio" name={`${id}-contact`} checked={contactId === c.id} onChange={() => setContactId(c.id)} />
                    {c.name ?? c.phone ?? c.email ?? c.id}
                    <span className="muted"> {[c.name ? c.phone : null, c.name ? c.email : null].filter(Boolean).join(" · ")}</span>
                  </label>
                ))}
              </fieldset>
              <fieldset>
                <legend>Mode</legend>
                <label className="choice">
                  <input type="radio" name={`${id}-mode`} checked={mode === "test"} onChange={() => setMode("test")} />
                  Test run <span className="muted">— messages are simulated, nothing is sent, no quota is spent</span>
                </label>
                <label className="choice">
                  <input type="radio" name={`${id}-mode`} checked={mode === "live"} onChange={() => setMode("live")} />
                  Live <span className="muted">— messages really go out</span>
                </label>
              </fieldset>
              <p role="status" className="ok">
                {started ? `${started.mode === "test" ? "Test run" : "Run"} ${started.id} started: it is in the runs below.` : ""}
              </p>
              {start.isError && (
                <p role="alert" className="error">
                  {apiFault(start.error).message}
                </p>
              )}
              <div className="actions">
                <button type="submit" className="button primary" disabled={!contactId || start.isPending}>
                  {start.isPending ? "Starting…" : mode === "test" ? "Start test run" : "Enroll"}
                </button>
              </div>
            </form>
          )}
        </div>
      )}
    </section>
  );
}

/** A ready `curl` call that enrolls a contact through the public API, for a backend developer to copy (D9's base URL). */
export function EnrollSnippet({ flowId, baseUrl }: { flowId: string; baseUrl: string }) {
  const id = useId();
  const snippet = [
    `curl -X POST ${baseUrl}/flows/${flowId}/enroll \\`,
    `  -H "Authorization: Bearer $SVC_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"to": {"phone": "+5511987654321"}, "variables": {"name": "Ana"}}'`,
  ].join("\n");
  return (
    <section className="section" aria-labelledby={`${id}-heading`}>
      <div className="section-head">
        <h2 id={`${id}-heading`}>Enroll from your backend</h2>
        <CopyButton value={snippet} label="Copy the enroll command" />
      </div>
      <p className="muted">
        With an API key that may enroll (<code>SVC_API_KEY</code>): a test key starts test runs, a live key live ones.
      </p>
      <pre className="code-snippet" tabIndex={0} aria-label="Enroll command">
        {snippet}
      </pre>
    </section>
  );
}
