import { randomUUID } from 'node:crypto';
import { appendAuditEntry, appendAuditEntryInTransaction, type AuditEntryInput } from '@pwa/audit';
import { withTransaction, type PoolClient } from '@pwa/db';
import { revokeAllSessionsOf, newSetupToken, normalisedEmail, setupLinkLifetimeSeconds, setupLinkUrl } from '@pwa/web-auth';
import { mayPerform, type OperatorRole } from '../domain/operator-roles';
import { returnToInvited } from '../store/operator-factor-store';
import { revokeAllPersonalTokensOf } from '../store/personal-token-store';
import { disableOperator, findOperatorByEmail, findOperatorById, insertOperator, lockActiveAdmins, replaceOperatorRoles, replaceSetupLink, type Operator } from '../store/operator-store';
import type { PeopleDependencies, RequestOrigin } from './people-dependencies';

/**
 * Admins manage the people of the back-office: invite one (an invited operator and a one-time
 * set-up link, shown to the inviting admin only, never a password), change roles, disable. A role
 * change or a disable revokes every session and every personal token of the person at once (the
 * next call signs in again with the new roles). The last active admin cannot be demoted or disabled. Every change and every
 * refusal is audited; the link never is.
 */
export type ManageRefusal = 'not-an-admin' | 'not-an-email' | 'email-taken' | 'unknown-operator' | 'last-admin' | 'not-yourself' | 'disabled';

export async function inviteOperator(
  deps: PeopleDependencies,
  adminId: string,
  invitation: { email: string; displayName: string; roles: readonly OperatorRole[]; consoleBaseUrl: string },
  origin: RequestOrigin,
): Promise<{ kind: 'invited'; operator: Operator; setupLink: string; expiresAt: Date } | { kind: 'refused'; reason: ManageRefusal }> {
  const admin = await activeAdmin(deps, adminId);
  const email = normalisedEmail(invitation.email);
  const target = { kind: 'operator', id: email ?? 'invalid address' };
  const refusal = !admin ? 'not-an-admin' : email === undefined ? 'not-an-email' : (await findOperatorByEmail(deps.pool, email)) ? 'email-taken' : undefined;
  if (refusal !== undefined || !admin || email === undefined) {
    const reason = refusal ?? 'not-an-admin';
    await appendAuditEntry(deps.pool, entry(admin, adminId, origin, { action: 'operator.invite', target, outcome: 'refused', reason, after: { roles: [...invitation.roles] } }));
    return { kind: 'refused', reason };
  }
  const setupToken = newSetupToken();
  return withTransaction(deps.pool, async (client) => {
    const operator = await insertOperator(client, { operatorId: randomUUID(), email, displayName: invitation.displayName, roles: invitation.roles, createdBy: admin.operatorId });
    const expiresAt = await replaceSetupLink(client, { operatorId: operator.operatorId, tokenSha256: setupToken.sha256, lifetimeSeconds: setupLinkLifetimeSeconds });
    await appendAuditEntryInTransaction(
      client,
      entry(admin, adminId, origin, { action: 'operator.invite', target: { kind: 'operator', id: operator.operatorId }, outcome: 'done', after: { email, displayName: operator.displayName, roles: [...operator.roles], status: 'invited' } }),
    );
    return { kind: 'invited', operator, setupLink: setupLinkUrl(invitation.consoleBaseUrl, setupToken.token), expiresAt } as const;
  });
}

export async function changeOperatorRoles(
  deps: PeopleDependencies,
  adminId: string,
  change: { operatorId: string; roles: readonly OperatorRole[] },
  origin: RequestOrigin,
): Promise<{ kind: 'changed'; operator: Operator; sessionsRevoked: number } | { kind: 'refused'; reason: ManageRefusal }> {
  const admin = await activeAdmin(deps, adminId);
  const target = { kind: 'operator', id: change.operatorId };
  const refuse = async (reason: ManageRefusal) => {
    await appendAuditEntry(deps.pool, entry(admin, adminId, origin, { action: 'operator.roles.change', target, outcome: 'refused', reason, after: { roles: [...change.roles] } }));
    return { kind: 'refused', reason } as const;
  };
  if (!admin) return refuse('not-an-admin');
  const outcome = await withTransaction(deps.pool, async (client) => {
    const admins = await lockActiveAdmins(client);
    if (!change.roles.includes('admin') && admins.length === 1 && admins[0] === change.operatorId) return 'last-admin' as const;
    const replaced = await replaceOperatorRoles(client, change.operatorId, change.roles);
    if (!replaced) return 'unknown-operator' as const;
    await appendAuditEntryInTransaction(client, entry(admin, adminId, origin, { action: 'operator.roles.change', target, outcome: 'done', before: { roles: [...replaced.before.roles] }, after: { roles: [...replaced.after.roles] } }));
    await revokePersonalTokensWith(client, admin, adminId, origin, change.operatorId, 'the roles changed');
    return replaced.after;
  });
  if (typeof outcome === 'string') return refuse(outcome);
  const sessionsRevoked = await revokeAllSessionsOf(deps.redis, deps.sessions, change.operatorId);
  return { kind: 'changed', operator: outcome, sessionsRevoked };
}

export async function disableOperatorAccount(
  deps: PeopleDependencies,
  adminId: string,
  operatorId: string,
  origin: RequestOrigin,
): Promise<{ kind: 'disabled'; operator: Operator; sessionsRevoked: number } | { kind: 'refused'; reason: ManageRefusal }> {
  const admin = await activeAdmin(deps, adminId);
  const target = { kind: 'operator', id: operatorId };
  const refuse = async (reason: ManageRefusal) => {
    await appendAuditEntry(deps.pool, entry(admin, adminId, origin, { action: 'operator.disable', target, outcome: 'refused', reason }));
    return { kind: 'refused', reason } as const;
  };
  if (!admin) return refuse('not-an-admin');
  if (operatorId === admin.operatorId) return refuse('not-yourself');
  const outcome = await withTransaction(deps.pool, async (client) => {
    const admins = await lockActiveAdmins(client);
    if (admins.length === 1 && admins[0] === operatorId) return 'last-admin' as const;
    const current = await findOperatorById(client, operatorId);
    const disabled = await disableOperator(client, operatorId);
    if (!disabled || !current) return 'unknown-operator' as const;
    await appendAuditEntryInTransaction(client, entry(admin, adminId, origin, { action: 'operator.disable', target, outcome: 'done', before: { status: current.status }, after: { status: 'disabled' } }));
    await revokePersonalTokensWith(client, admin, adminId, origin, operatorId, 'the operator was disabled');
    return disabled;
  });
  if (typeof outcome === 'string') return refuse(outcome);
  const sessionsRevoked = await revokeAllSessionsOf(deps.redis, deps.sessions, operatorId);
  return { kind: 'disabled', operator: outcome, sessionsRevoked };
}

/**
 * A person who lost their authenticator or passkeys is reset by another admin, with a reason: in
 * one transaction they go back to "invited" (no password, no TOTP factor, no passkey, no
 * identity-provider link), their personal tokens are revoked, and a new one-time set-up link
 * replaces any earlier one (two admins at once: the later link is the one that works); then every
 * session ends. The link is shown once, to the admin, to hand over in person. Nobody resets
 * themselves, and a disabled person stays disabled. Audited with what was cleared (counts only).
 */
export async function resetOperatorFactors(
  deps: PeopleDependencies,
  adminId: string,
  reset: { operatorId: string; reason: string; consoleBaseUrl: string },
  origin: RequestOrigin,
): Promise<{ kind: 'reset'; operator: Operator; setupLink: string; expiresAt: Date; sessionsRevoked: number } | { kind: 'refused'; reason: ManageRefusal }> {
  const admin = await activeAdmin(deps, adminId);
  const target = { kind: 'operator', id: reset.operatorId };
  const refuse = async (why: ManageRefusal) => {
    await appendAuditEntry(deps.pool, entry(admin, adminId, origin, { action: 'operator.factors.reset', target, outcome: 'refused', reason: `${why}; asked because: ${reset.reason}` }));
    return { kind: 'refused', reason: why } as const;
  };
  if (!admin) return refuse('not-an-admin');
  if (reset.operatorId === admin.operatorId) return refuse('not-yourself');
  const setupToken = newSetupToken();
  const outcome = await withTransaction(deps.pool, async (client) => {
    const current = await findOperatorById(client, reset.operatorId);
    if (!current) return 'unknown-operator' as const;
    const returned = await returnToInvited(client, reset.operatorId);
    if (!returned) return 'disabled' as const;
    const expiresAt = await replaceSetupLink(client, { operatorId: reset.operatorId, tokenSha256: setupToken.sha256, lifetimeSeconds: setupLinkLifetimeSeconds });
    await appendAuditEntryInTransaction(
      client,
      entry(admin, adminId, origin, {
        action: 'operator.factors.reset',
        target,
        outcome: 'done',
        before: { status: returned.before, authenticatorApp: returned.cleared.authenticatorApp, passkeys: returned.cleared.passkeys, identityProviderLinks: returned.cleared.identityProviderLinks },
        after: { status: 'invited', authenticatorApp: false, passkeys: 0, identityProviderLinks: 0, because: reset.reason },
      }),
    );
    await revokePersonalTokensWith(client, admin, adminId, origin, reset.operatorId, 'the sign-in factors were reset');
    return { operator: { ...current, status: 'invited' as const }, expiresAt };
  });
  if (typeof outcome === 'string') return refuse(outcome);
  const sessionsRevoked = await revokeAllSessionsOf(deps.redis, deps.sessions, reset.operatorId);
  return { kind: 'reset', operator: outcome.operator, setupLink: setupLinkUrl(reset.consoleBaseUrl, setupToken.token), expiresAt: outcome.expiresAt, sessionsRevoked };
}

/**
 * A person's personal tokens end with the roles or the status they were made under (decision
 * 0072): revoked in the change's own transaction, each revocation audited (its id, never the token).
 */
async function revokePersonalTokensWith(client: PoolClient, admin: Operator, adminId: string, origin: RequestOrigin, operatorId: string, because: string): Promise<void> {
  for (const tokenId of await revokeAllPersonalTokensOf(client, operatorId, admin.operatorId)) {
    await appendAuditEntryInTransaction(client, entry(admin, adminId, origin, { action: 'personal_token.revoke', target: { kind: 'personal_token', id: tokenId }, outcome: 'done', before: { operatorId, revoked: false }, after: { revoked: true, because } }));
  }
}

async function activeAdmin(deps: PeopleDependencies, operatorId: string): Promise<Operator | undefined> {
  const operator = await findOperatorById(deps.pool, operatorId);
  return operator?.status === 'active' && mayPerform(operator.roles, 'manage-operators') ? operator : undefined;
}

function entry(admin: Operator | undefined, adminId: string, origin: RequestOrigin, fields: Pick<AuditEntryInput, 'action' | 'target' | 'outcome' | 'reason' | 'before' | 'after'>): AuditEntryInput {
  return { ...fields, actor: { kind: 'person', id: admin?.operatorId ?? adminId, displayName: admin?.displayName ?? 'unknown operator' }, address: origin.address, userAgent: origin.userAgent, requestId: origin.requestId };
}
