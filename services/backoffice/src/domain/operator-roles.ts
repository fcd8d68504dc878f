/**
 * What each operator role may do (../shared/design/people.md): a viewer reads; a maker also asks
 * for changes; a checker also approves or rejects another person's request; an admin manages the
 * operators themselves; checkers and admins also read and export the audit log (oversight). Roles are granted one by one (a person may be maker and checker, but never
 * checks their own request: see approval-rules.ts). Checked on the server for every call.
 */
export const operatorRoles = ['viewer', 'maker', 'checker', 'admin'] as const;
export type OperatorRole = (typeof operatorRoles)[number];

export const operatorCapabilities = ['read', 'request-change', 'decide-request', 'read-audit', 'manage-operators'] as const;
export type OperatorCapability = (typeof operatorCapabilities)[number];

const capabilitiesOf: Readonly<Record<OperatorRole, readonly OperatorCapability[]>> = {
  viewer: ['read'],
  maker: ['read', 'request-change'],
  checker: ['read', 'decide-request', 'read-audit'],
  admin: ['read', 'read-audit', 'manage-operators'],
};

export function isOperatorRole(value: string): value is OperatorRole {
  return (operatorRoles as readonly string[]).includes(value);
}

/** True when any of the person's roles grants the capability. */
export function mayPerform(roles: readonly OperatorRole[], capability: OperatorCapability): boolean {
  return roles.some((role) => capabilitiesOf[role].includes(capability));
}
