"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { ContactsTable } from "./contacts-table.tsx";
import { NewContactDialog } from "./new-contact-dialog.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";

const PAGE_SIZE = 25;
/** Typing searches once the user pauses; Enter searches at once. */
const TYPING_PAUSE_MS = 400;

/**
 * The search and the page shown: `cursors` holds the `after` of every page from the first
 * (undefined) to the current one, so "Previous page" pops one.
 */
type Position = { q: string; cursors: (string | undefined)[] };

/** The contacts page: search by phone, e-mail, name or WhatsApp user id or username, page through, and (admins) add one. */
export function ContactsView({ workspace, canManage }: { workspace: string; canManage: boolean }) {
  const trpc = useTRPC();
  const [text, setText] = useState("");
  const [position, setPosition] = useState<Position>({ q: "", cursors: [undefined] });
  const [creating, setCreating] = useState(false);
  const after = position.cursors[position.cursors.length - 1];
  const page = useQuery({
    ...trpc.contacts.search.queryOptions({ q: position.q, limit: PAGE_SIZE, after }),
    placeholderData: keepPreviousData,
  });
  const tags = useWorkspaceTags();

  const search = useCallback((value: string) => {
    const q = value.trim();
    setPosition((current) => (current.q === q ? current : { q, cursors: [undefined] }));
  }, []);
  useEffect(() => {
    const timer = setTimeout(() => search(text), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, search]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    search(text);
  }

  const next = page.isPlaceholderData ? null : (page.data?.next ?? null);
  const pageNumber = position.cursors.length;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Contacts</h1>
          <p className="muted">The people this workspace sends to, created by the API, by flows, or here.</p>
        </div>
        {canManage && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            New contact
          </button>
        )}
      </div>
      {!canManage && (
        <p className="note">You have read-only access to this workspace&apos;s contacts. Ask an admin to add or edit contacts.</p>
      )}

      <form role="search" className="search" onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor="contact-search">Search contacts</label>
          <input
            id="contact-search"
            type="search"
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder="Phone, e-mail, name or WhatsApp user"
            maxLength={200}
            autoComplete="off"
          />
        </div>
        <button type="submit" className="button">
          Search
        </button>
      </form>

      <QueryState query={page} what="the contacts" />
      {page.data &&
        (page.data.items.length === 0 && pageNumber === 1 ? (
          <p className="empty">{position.q ? `No contacts match “${position.q}”.` : "No contacts yet."}</p>
        ) : (
          <ContactsTable workspace={workspace} contacts={page.data.items} tags={tags.byId} busy={page.isPlaceholderData} />
        ))}
      {page.data && (pageNumber > 1 || next) && (
        <nav className="pager" aria-label="Pages of contacts">
          <button
            type="button"
            className="button"
            disabled={pageNumber === 1}
            onClick={() => setPosition((current) => ({ ...current, cursors: current.cursors.slice(0, -1) }))}
          >
            Previous page
          </button>
          <span aria-live="polite">Page {pageNumber}</span>
          <button
            type="button"
            className="button"
            disabled={!next}
            onClick={() => next && setPosition((current) => ({ ...current, cursors: [...current.cursors, next] }))}
          >
            Next page
          </button>
        </nav>
      )}
      {creating && <NewContactDialog workspace={workspace} onClose={() => setCreating(false)} />}
    </>
  );
}
