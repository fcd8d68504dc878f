/**
 * A partner's team roles and what each may do (../shared/design/people.md), checked on the server
 * for every call. support is read-only; finance reads money and runs bulk payouts; developers look
 * after the integration (deliveries, the sandbox); changing credentials, webhook settings or the
 * team is the admin's, with a fresh MFA code.
 */
export const memberRoles = ['admin', 'developer', 'finance', 'support'] as const;
export type MemberRole = (typeof memberRoles)[number];

export const dashboardActions = [
  /** Home, transactions and their detail, events and deliveries. */
  'read',
  /** A statement CSV of a whole period. */
  'download_statement',
  /** Send a webhook delivery again. */
  'redeliver',
  /** Ask for a webhook.test to the partner's webhook URL. */
  'send_test_webhook',
  /** The sandbox's approve and decline buttons. */
  'simulate',
  /** Upload a bulk payout CSV and see its quote. */
  'upload_bulk',
  /** Confirm a quoted bulk payout: money leaves. */
  'confirm_bulk',
  /** Invite, change the role of, or remove a member. */
  'manage_team',
  /** Client secrets, the webhook URL and its secret. */
  'manage_credentials',
  /** The partner's audit log. */
  'read_audit',
] as const;
export type DashboardAction = (typeof dashboardActions)[number];

const allowedActions: Readonly<Record<MemberRole, ReadonlySet<DashboardAction>>> = {
  admin: new Set(dashboardActions),
  developer: new Set<DashboardAction>(['read', 'redeliver', 'send_test_webhook', 'simulate']),
  finance: new Set<DashboardAction>(['read', 'download_statement', 'upload_bulk', 'confirm_bulk']),
  support: new Set<DashboardAction>(['read']),
};

export function roleAllows(role: MemberRole, action: DashboardAction): boolean {
  return allowedActions[role].has(action);
}

/** What a role may do, in the catalogue's order: the pages draw only the buttons a member may use. */
export function actionsOf(role: MemberRole): DashboardAction[] {
  return dashboardActions.filter((action) => roleAllows(role, action));
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (memberRoles as readonly string[]).includes(value);
}
