"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/app/_components/link.tsx";
import { useEffect, useRef, useState } from "react";
import { TagChips } from "@/app/_components/tag-chips.tsx";
import { useTRPC } from "@/app/_components/trpc.ts";
import { useWorkspaceFields, useWorkspaceTags } from "@/app/_components/use-catalog.ts";
import { When } from "@/app/_components/when.tsx";
import type { Contact } from "@/server/contacts/contact-schemas.ts";
import type { CustomField } from "@/server/fields/field-schemas.ts";
import type { ContactChanges } from "./contact-changes.ts";
import { ContactForm } from "./contact-form.tsx";
import { ContactHistory } from "./contact-history.tsx";
import { ContactEvents } from "./contact-events.tsx";
import { ContactMessages } from "./contact-messages.tsx";
import { ContactReachability } from "./contact-reachability.tsx";
import { ContactRuns } from "./contact-runs.tsx";
import { CHANNEL_WORDS, listed } from "@/app/_components/channel-names.ts";
import { OptOuts, optedOutOf } from "./contacts-table.tsx";
import { QueryState } from "@/app/_components/query-state.tsx";
import { Loading } from "@/app/_components/query-state.tsx";

type Props = { workspace: string; id: string; canManage: boolean };

/** One contact: its values, custom fields and event history; admins edit it in place. */
export function ContactDetail({ workspace, id, canManage }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const contact = useQuery(trpc.contacts.get.queryOptions({ id }));
  const history = useQuery(trpc.contacts.history.queryOptions({ id }));
  const tags = useWorkspaceTags();
  const fields = useWorkspaceFields();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);
  const update = useMutation(trpc.contacts.update.mutationOptions());

  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editButton.current?.focus();
  }, [editing]);

  function startEditing() {
    update.reset();
    setSaved(false);
    setEditing(true);
  }

  function save(changes: ContactChanges) {
    update.mutate(
      { id, ...changes },
      {
        onSuccess: async (next) => {
          queryClient.setQueryData(trpc.contacts.get.queryKey({ id }), next);
          // The change is in the history (contato.atualizado) and may move it in the search.
          await Promise.all([
            queryClient.invalidateQueries(trpc.contacts.history.queryFilter({ id })),
            queryClient.invalidateQueries(trpc.contacts.search.queryFilter()),
            queryClient.invalidateQueries(trpc.contacts.reachability.queryFilter({ id })),
          ]);
          returnFocus.current = true;
          setEditing(false);
          setSaved(true);
        },
      },
    );
  }

  function stopEditing() {
    returnFocus.current = true;
    setEditing(false);
  }

  const back = (
    <Link href={`/w/${encodeURIComponent(workspace)}/contacts`} className="back-link">
      ← All contacts
    </Link>
  );
  if (contact.isPending || contact.isError) {
    return (
      <>
        {back}
        <QueryState query={contact} what="the contact" />
      </>
    );
  }

  const c = contact.data;
  const canEdit = canManage && tags.data !== undefined && fields.data !== undefined;
  return (
    <>
      {back}
      <div className="page-header">
        <div>
          <h1>{c.name ?? c.phone ?? c.whatsapp_username ?? c.whatsapp_user_id ?? c.email ?? "Contact"}</h1>
          <p className="muted">
            <code>{c.id}</code>
          </p>
        </div>
        {canEdit && !editing && (
          <button ref={editButton} type="button" className="button primary" onClick={startEditing}>
            Edit
          </button>
        )}
      </div>
      <p role="status" className="ok">
        {saved && !editing ? "Contact saved." : ""}
      </p>
      {!canManage && <p className="note">You have read-only access to this workspace&apos;s contacts.</p>}
      {optedOutOf(c).length > 0 && (
        <p className="note opt-out-note">
          Opted out of {listed(optedOutOf(c).map((type) => CHANNEL_WORDS[type]))}: sends to this contact on{" "}
          {optedOutOf(c).length > 1 ? "those channels" : "that channel"} are refused, and flows skip them.
        </p>
      )}

      {editing && tags.data && fields.data ? (
        <section className="section panel" aria-labelledby="edit-contact">
          <h2 id="edit-contact">Edit contact</h2>
          <ContactForm
            contact={c}
            tags={tags.data}
            fields={fields.data}
            error={update.error}
            pending={update.isPending}
            submitLabel="Save changes"
            onSubmit={save}
            onCancel={stopEditing}
          />
        </section>
      ) : (
        <>
          <section className="panel" aria-label="Contact details">
            <dl className="details">
              <dt>Name</dt>
              <dd>{c.name ?? <span className="muted">No name</span>}</dd>
              <dt>Phone</dt>
              <dd>{c.phone ?? <span className="muted">None</span>}</dd>
              <dt>WhatsApp user id</dt>
              <dd style={{ overflowWrap: "anywhere" }}>{c.whatsapp_user_id ?? <span className="muted">None</span>}</dd>
              <dt>WhatsApp username</dt>
              <dd>{c.whatsapp_username ?? <span className="muted">Unknown</span>}</dd>
              <dt>E-mail</dt>
              <dd>{c.email ?? <span className="muted">None</span>}</dd>
              <dt>Tags</dt>
              <dd>
                <TagChips ids={c.tags} tags={tags.byId} empty="None" />
              </dd>
              <dt>Opted out of</dt>
              <dd>
                <OptOuts contact={c} />
              </dd>
              <dt>Created</dt>
              <dd>
                <When value={c.created_at} />
              </dd>
              <dt>Updated</dt>
              <dd>
                <When value={c.updated_at} />
              </dd>
            </dl>
          </section>
          <section className="section" aria-labelledby="custom-fields">
            <h2 id="custom-fields">Custom fields</h2>
            <CustomFieldValues contact={c} fields={fields.data} />
          </section>
        </>
      )}

      <ContactReachability contactId={c.id} />
      <ContactMessages workspace={workspace} contactId={c.id} />
      <ContactEvents workspace={workspace} contactId={c.id} />
      <ContactRuns workspace={workspace} contactId={c.id} />

      <section className="section" aria-labelledby="history">
        <h2 id="history">History</h2>
        <QueryState query={history} what="the history" />
        {history.data && <ContactHistory events={history.data} workspace={workspace} />}
      </section>
    </>
  );
}

function formatValue(value: string | number | boolean): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

/**
 * Every custom field of the workspace with this contact's value, and any stored value whose
 * key no field of the workspace has (shown by its key).
 */
function CustomFieldValues({ contact, fields }: { contact: Contact; fields: CustomField[] | undefined }) {
  if (!fields) return <Loading what="the custom fields" />;
  const known = new Set(fields.map((f) => f.key));
  const rows = [
    ...fields.map((f) => ({ key: f.key, name: f.name, type: f.type as string, value: contact.fields[f.key] })),
    ...Object.entries(contact.fields)
      .filter(([key]) => !known.has(key))
      .map(([key, value]) => ({ key, name: key, type: typeof value as string, value })),
  ];
  if (rows.length === 0) return <p className="empty">This workspace has no custom fields yet.</p>;
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Custom field values of this contact</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Key</th>
            <th scope="col">Type</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.name}</th>
              <td>
                <code>{`{{${row.key}}}`}</code>
              </td>
              <td>{row.type}</td>
              <td>{row.value === undefined ? <span className="muted">Not set</span> : formatValue(row.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
