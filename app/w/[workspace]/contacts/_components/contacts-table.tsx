import { Link } from "@/app/_components/link.tsx";
import { TagChips } from "@/app/_components/tag-chips.tsx";
import { When } from "@/app/_components/when.tsx";
import { CHANNEL_TYPES, optOutColumn } from "@/app/_channels/channel-words.ts";
import { CHANNEL_LABEL } from "@/app/_components/channel-names.ts";
import type { Contact, OptOutColumn } from "@/server/contacts/contact-schemas.ts";
import type { Tag } from "@/server/tags/tag-schemas.ts";

/** The channels a contact opted out of, as badges. */
export function OptOuts({ contact }: { contact: Pick<Contact, OptOutColumn> }) {
  const types = optedOutOf(contact);
  if (!types.length) return <span className="muted">None</span>;
  return (
    <ul className="flags chips" aria-label="Opted out of">
      {types.map((type) => (
        <li key={type} className="badge opted-out">
          {CHANNEL_LABEL[type]}
        </li>
      ))}
    </ul>
  );
}

/** The channel types a contact opted out of, in the registry's order. */
export const optedOutOf = (contact: Pick<Contact, OptOutColumn>) => CHANNEL_TYPES.filter((type) => contact[optOutColumn(type)]);

type Props = { workspace: string; contacts: Contact[]; tags: ReadonlyMap<string, Tag>; busy: boolean };

/** One page of contacts; the name opens the contact. */
export function ContactsTable({ workspace, contacts, tags, busy }: Props) {
  const base = `/w/${encodeURIComponent(workspace)}/contacts`;
  return (
    <div className="table-wrap" aria-busy={busy}>
      <table>
        <caption className="visually-hidden">Contacts of this workspace</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Phone</th>
            <th scope="col">E-mail</th>
            <th scope="col">Tags</th>
            <th scope="col">Opted out of</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {contacts.map((contact) => (
            <tr key={contact.id}>
              <th scope="row">
                <Link href={`${base}/${encodeURIComponent(contact.id)}`}>{contact.name ?? <span className="muted">No name</span>}</Link>
              </th>
              <td>
                {contact.phone ??
                  (contact.whatsapp_user_id ? (
                    <span title={`WhatsApp user id ${contact.whatsapp_user_id}`}>
                      WhatsApp {contact.whatsapp_username ?? contact.whatsapp_user_id}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  ))}
              </td>
              <td>{contact.email ?? <span className="muted">—</span>}</td>
              <td>
                <TagChips ids={contact.tags} tags={tags} />
              </td>
              <td>
                <OptOuts contact={contact} />
              </td>
              <td>
                <When value={contact.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
