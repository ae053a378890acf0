// The audit log's actions (`<resource>.<verb>`) with the words the dashboard shows for them.
// Shared by the services that record them, the audit router's filter and the audit page.

export const AUDIT_ACTIONS = {
  "api_key.created": "Created an API key",
  "api_key.revoked": "Revoked an API key",
  "webhook.created": "Added a webhook endpoint",
  "webhook.updated": "Changed a webhook endpoint",
  "webhook.secret_rotated": "Rotated a webhook signing secret",
  "webhook.deleted": "Deleted a webhook endpoint",
  "channel.connected": "Connected a channel",
  "channel.disconnected": "Disconnected a channel",
  "channel.resumed": "Resumed a paused channel",
  "flow.created": "Created a flow",
  "flow.updated": "Edited a flow",
  "flow.activated": "Activated a flow",
  "flow.paused": "Paused a flow",
  "flow.archived": "Archived a flow",
  "team.member_added": "Added a team member",
  "team.role_changed": "Changed a team member's role",
  "team.member_removed": "Removed a team member",
  "team.password_reset": "Reset a team member's password",
  "workspace.created": "Created the workspace",
  "workspace.updated": "Changed the workspace's settings",
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** What each target type is called, for the target column and the action filter's groups. */
export const AUDIT_TARGETS = {
  api_key: "API key",
  webhook: "Webhook endpoint",
  channel: "Channel",
  flow: "Flow",
  user: "Team member",
  workspace: "Workspace",
} as const;

export type AuditTargetType = keyof typeof AUDIT_TARGETS;

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}
