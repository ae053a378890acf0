import { eventDescription, eventLabel } from "@/server/events/event-names.ts";

type Props = { name: string; /** Adds the event's meaning in a sentence below its title. */ describe?: boolean };

/**
 * An event as the dashboard shows it everywhere: its English title, then the name the API and
 * webhooks use (which stays as it is, it is the contract); the meaning on hover, or below when
 * `describe`.
 */
export function EventName({ name, describe = false }: Props) {
  const description = eventDescription(name);
  return (
    <span className="event-name" title={describe ? undefined : description || undefined}>
      <span>{eventLabel(name)}</span> <code className="muted">{name}</code>
      {describe && description ? <span className="muted hint event-description">{description}</span> : null}
    </span>
  );
}
