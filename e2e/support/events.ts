import { dashboardQuery } from "./dashboard.ts";

export type LoggedEvent = { id: string; event: string; mode: string; data: any; timestamp: string };

/** The event log about a contact, oldest first, read through the dashboard's contact history. */
export async function contactEvents(workspaceId: string, contactId: string): Promise<LoggedEvent[]> {
  const newestFirst = await dashboardQuery<LoggedEvent[]>(workspaceId, "contacts.history", { id: contactId });
  return newestFirst.reverse();
}
