import { randomUUID } from 'node:crypto';
import { appendAuditEntry, appendAuditEntryInTransaction, type AuditActor } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import { withTransaction } from '@pwa/db';
import { adminCounts, findOperatorByEmail, insertOperator, replaceSetupLink } from '../store/operator-store';
import { newSetupToken, normalisedEmail, setupLinkLifetimeSeconds, setupLinkUrl } from '@pwa/web-auth';

export type BootstrapOutcome =
  | { kind: 'created'; operatorId: string; email: string; setupLink: string; expiresAt: Date }
  | { kind: 'link-renewed'; operatorId: string; email: string; setupLink: string; expiresAt: Date }
  | { kind: 'refused'; reason: 'an-admin-exists' | 'not-an-email' | 'another-admin-invited' };

/**
 * The first admin of a new back-office (`backoffice bootstrap-admin --email … --name …`): an
 * invited admin and a one-time set-up link, never a default password. Refused once an admin can
 * sign in (from then on admins invite people in the console). Run again before the link is used
 * (it expired, it was lost), it renews the link of the same invited admin. Serialised by a
 * transaction-level advisory lock, so two bootstraps at once make one admin. Each outcome is an
 * audit entry of the set-up command (the invitation or its renewal with it, a refusal after it);
 * never the link.
 */
export async function bootstrapFirstAdmin(pool: Pool, request: { email: string; displayName: string; consoleBaseUrl: string }): Promise<BootstrapOutcome> {
  const email = normalisedEmail(request.email);
  if (email === undefined) return { kind: 'refused', reason: 'not-an-email' };
  const outcome = await withTransaction(pool, async (client): Promise<BootstrapOutcome> => {
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('backoffice.bootstrap-first-admin'))`);
    const counts = await adminCounts(client);
    if (counts.active > 0) return { kind: 'refused', reason: 'an-admin-exists' };
    const existing = await findOperatorByEmail(client, email);
    if (counts.invited > 0 && (existing === undefined || !existing.roles.includes('admin'))) return { kind: 'refused', reason: 'another-admin-invited' };
    const operator = existing ?? (await insertOperator(client, { operatorId: randomUUID(), email, displayName: request.displayName, roles: ['admin'], createdBy: null }));
    const setupToken = newSetupToken();
    const expiresAt = await replaceSetupLink(client, { operatorId: operator.operatorId, tokenSha256: setupToken.sha256, lifetimeSeconds: setupLinkLifetimeSeconds });
    const kind = existing ? 'link-renewed' : 'created';
    await appendAuditEntryInTransaction(client, {
      actor: setupCommand,
      action: kind === 'created' ? 'operator.bootstrap' : 'operator.bootstrap.link_renew',
      target: { kind: 'operator', id: operator.operatorId },
      after: { email, displayName: operator.displayName, roles: ['admin'], status: 'invited', linkExpiresAt: expiresAt.toISOString() },
      outcome: 'done',
    });
    return { kind, operatorId: operator.operatorId, email, setupLink: setupLinkUrl(request.consoleBaseUrl, setupToken.token), expiresAt };
  });
  if (outcome.kind === 'refused') {
    await appendAuditEntry(pool, { actor: setupCommand, action: 'operator.bootstrap', target: { kind: 'operator', id: email }, outcome: 'refused', reason: outcome.reason });
  }
  return outcome;
}

/** The set-up command acts before any person can sign in: the system, named as the command. */
const setupCommand: AuditActor = { kind: 'system', id: 'bootstrap-admin', displayName: 'bootstrap-admin (set-up command)' };
