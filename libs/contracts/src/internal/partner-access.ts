import type { PartnerPermission, PartnerStatus } from '../partner-events';
import type { PartnerIdentity } from './partner-identity';

/**
 * What an edge (the gateway, the partner dashboard) needs to know about a partner to admit a
 * request for it (auth's public view of it): the identity it asserts to the services once the
 * partner is admitted, and what admission decides on.
 */
export interface PartnerRecord extends PartnerIdentity {
  status: PartnerStatus;
  /** Null means the platform default applies. */
  rateLimitPerMinute: number | null;
}

export type AccessDecision =
  | { allowed: true; partner: PartnerRecord }
  | { allowed: false; code: 'PKC_1006' | 'PKC_1007' | 'PKC_1008' | 'PKC_1009' };

/**
 * Whether a partner may call a route right now. Status comes first: a suspended partner hears
 * "suspended" whatever the route. A partner auth no longer knows is "not active" (PKC_1009).
 * Permissions are read from the fresh record, never from the token alone, so a revoked permission
 * takes effect before the token expires.
 */
export function decidePartnerAccess(partner: PartnerRecord | undefined, requiredPermission: PartnerPermission | null): AccessDecision {
  if (partner === undefined) return { allowed: false, code: 'PKC_1009' };
  switch (partner.status) {
    case 'active':
      break;
    case 'suspended':
      return { allowed: false, code: 'PKC_1006' };
    case 'pending_activation':
      return { allowed: false, code: 'PKC_1007' };
    case 'inactive':
      return { allowed: false, code: 'PKC_1009' };
  }
  if (requiredPermission !== null && !partner.permissions.includes(requiredPermission)) return { allowed: false, code: 'PKC_1008' };
  return { allowed: true, partner };
}
