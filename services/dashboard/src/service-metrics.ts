import { registerAuditMetrics, type AuditMetrics } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { Registry } from 'prom-client';

/**
 * The dashboard's gauges read from its database (alerts PwaDashboardSignInLockouts,
 * PwaDashboardAuditChainBroken, PwaDashboardAuditChainUnverified), served on its internal port:
 * - dashboard_sign_in_refusals{reason}: members' sign-in steps (member.sign_in.password, .totp,
 *   .passkey) refused in the last 15 minutes, from the partners' audit log (dashboard.audit_log):
 *   account_locked, address_throttled, wrong_password, no_active_member_with_this_address,
 *   wrong_or_used_code, other (a refused passkey);
 * - dashboard_audit_chain_intact{chain="audit_log"} and dashboard_audit_chain_verified_timestamp_seconds,
 *   from a walk of that log's hash chain at start and every 15 minutes.
 * The same gauges as the back-office's (libs/audit's registerAuditMetrics).
 */
export function registerDashboardMetrics(registry: Registry, pool: Pool, logger: Logger): AuditMetrics {
  return registerAuditMetrics({
    prefix: 'dashboard',
    registry,
    pool,
    logger,
    signInActionPrefix: 'member.sign_in.',
    signInRefusalReasons: ['wrong password', 'no active member with this address', 'wrong or used code'],
  });
}
