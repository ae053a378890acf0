"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { SearchHit } from "@/server/search/search.ts";
import { ModeBadge } from "@/app/w/[workspace]/messages/_components/message-labels.tsx";
import { Link } from "./link.tsx";
import { useTRPC } from "./trpc.ts";

const GROUPS: { kind: SearchHit["kind"]; label: string }[] = [
  { kind: "message", label: "Messages" },
  { kind: "contact", label: "Contacts" },
  { kind: "flow", label: "Flows" },
  { kind: "run", label: "Flow runs" },
  { kind: "delivery", label: "Webhook deliveries" },
];

/** The page a hit opens. */
export function hitHref(workspace: string, hit: SearchHit): string {
  const base = `/w/${encodeURIComponent(workspace)}`;
  const id = encodeURIComponent(hit.id);
  switch (hit.kind) {
    case "message":
      return `${base}/messages/${id}`;
    case "contact":
      return `${base}/contacts/${id}`;
    case "flow":
      return `${base}/flows/${id}`;
    case "run":
      return `${base}/flows/${encodeURIComponent(hit.parent_id ?? "")}?run=${id}`;
    case "delivery":
      return `${base}/webhooks/${encodeURIComponent(hit.parent_id ?? "")}?delivery=${id}`;
  }
}

/** Waits until typing pauses, so each word is one search and not one per key. */
function useSettled(value: string, ms = 200): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The top bar's search (`/` focuses it): ids of every kind, phone numbers in any format,
 * e-mail addresses, contacts' names, metadata values. Results are grouped by kind; Enter opens
 * the first, the arrow keys move through them, Escape closes them. A message, run or delivery
 * found says its mode, as the search reads live and test data together.
 */
export function SearchBox({ workspace }: { workspace: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const resultsId = useId();
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const q = useSettled(text.trim());
  const result = useQuery({ ...trpc.search.find.queryOptions({ q }), enabled: q.length > 0, placeholderData: keepPreviousData });

  useEffect(() => {
    function onKey(event: globalThis.KeyboardEvent) {
      if (event.key !== "/" || event.metaKey || event.ctrlKey || event.altKey) return;
      const target = event.target as HTMLElement | null;
      if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      if (document.querySelector("dialog[open]")) return;
      event.preventDefault();
      input.current?.focus();
    }
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const hits = q && result.data?.q === q ? result.data.hits : [];
  const shown = open && text.trim().length > 0;

  function go(hit: SearchHit) {
    setOpen(false);
    router.push(hitHref(workspace, hit));
  }

  function links(): HTMLAnchorElement[] {
    return Array.from(panel.current?.querySelectorAll<HTMLAnchorElement>("a") ?? []);
  }

  function onInputKey(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter") {
      event.preventDefault();
      if (hits[0]) go(hits[0]);
    } else if (event.key === "ArrowDown") {
      event.preventDefault();
      links()[0]?.focus();
    } else if (event.key === "Escape") {
      setOpen(false);
    }
  }

  function onPanelKey(event: KeyboardEvent<HTMLDivElement>) {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = at + (event.key === "ArrowDown" ? 1 : -1);
      if (next < 0) input.current?.focus();
      else all[Math.min(next, all.length - 1)]?.focus();
    } else if (event.key === "Escape") {
      setOpen(false);
      input.current?.focus();
    }
  }

  const pending = q !== text.trim() || result.isFetching;
  return (
    <search
      className="search-box"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={`${resultsId}-q`} className="visually-hidden">
        Search messages, contacts, flows, runs and webhook events
      </label>
      <input
        ref={input}
        id={`${resultsId}-q`}
        type="search"
        placeholder="Search ids, phones, e-mails, names…  /"
        autoComplete="off"
        spellCheck={false}
        value={text}
        aria-controls={resultsId}
        aria-keyshortcuts="/"
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onInputKey}
      />
      <div id={resultsId} ref={panel} className="search-results" hidden={!shown} onKeyDown={onPanelKey}>
        <p role="status" className="muted small">
          {shown && !pending && result.isError && "The search failed. Try again."}
          {shown &&
            !pending &&
            !result.isError &&
            (hits.length === 0 ? `Nothing found for “${q}”.` : `${hits.length} found. Enter opens the first.`)}
          {shown && pending && "Searching…"}
        </p>
        {GROUPS.map(({ kind, label }) => {
          const ofKind = hits.filter((h) => h.kind === kind);
          if (ofKind.length === 0) return null;
          return (
            <section key={kind} aria-label={label}>
              <h2 className="search-group">{label}</h2>
              <ul>
                {ofKind.map((hit) => (
                  <li key={hit.id}>
                    <Link href={hitHref(workspace, hit)} onClick={() => setOpen(false)}>
                      <span className="search-title-line">
                        <span className="search-title">{hit.title}</span>
                        {hit.mode && <ModeBadge mode={hit.mode} />}
                      </span>
                      <span className="muted small search-detail">
                        {hit.detail ? `${hit.detail} · ` : ""}
                        <code>{hit.id}</code>
                      </span>
                    </Link>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </search>
  );
}
