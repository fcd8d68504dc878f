import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendAuditEntry, appendAuditEntryInTransaction, type AuditEntryInput } from '@pwa/audit';
import { withTransaction } from '@pwa/db';
import type { Session } from '@pwa/web-auth';
import { mayPerform } from '../domain/operator-roles';
import { findOperatorById, type Operator } from '../store/operator-store';
import { findPersonalToken, insertPersonalToken, personalTokensOf, revokePersonalToken, useLivePersonalToken, type PersonalTokenSummary } from '../store/personal-token-store';
import type { PeopleDependencies, RequestOrigin } from './people-dependencies';
import { signInIsRecent } from './recent-sign-in';

/**
 * Personal access tokens (decision 0072): the operator CLI calls the console API as a person. A
 * token is made by a person signed in with MFA recently (the rule passkey changes follow), shown
 * once, kept as its SHA-256 only, and ends when revoked, expired, or when its person is disabled
 * or their roles change. Its requests act with the person's current roles, read on every call.
 */

/** The recognisable prefix: secret scanners find a leaked token by it. */
export const personalTokenPrefix = 'pwabo_';
const personalTokenShape = /^pwabo_[A-Za-z0-9_-]{43}$/;
export const personalTokenLifetimeDaysMax = 90;
export const personalTokenLifetimeDaysDefault = 30;

type Refusal<Reason extends string> = { kind: 'refused'; reason: Reason };

export function personalTokenHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Whether a bearer value has a personal token's shape (anything else is refused without a database read). */
export function looksLikePersonalToken(value: string): boolean {
  return personalTokenShape.test(value);
}

export type CreateTokenOutcome = { kind: 'created'; token: PersonalTokenSummary; secret: string } | Refusal<'sign-in-not-recent' | 'not-active'>;

export async function createPersonalToken(deps: PeopleDependencies, session: Session, request: { name: string; lifetimeDays: number }, origin: RequestOrigin): Promise<CreateTokenOutcome> {
  const operator = await findOperatorById(deps.pool, session.subjectId);
  if (operator?.status !== 'active') return { kind: 'refused', reason: 'not-active' };
  if (!signInIsRecent(deps, session)) {
    await appendAuditEntry(deps.pool, entry(operator, origin, { action: 'personal_token.create', target: { kind: 'operator', id: operator.operatorId }, outcome: 'refused', reason: 'the sign-in is not recent enough to make a personal token' }));
    return { kind: 'refused', reason: 'sign-in-not-recent' };
  }
  const secret = `${personalTokenPrefix}${randomBytes(32).toString('base64url')}`;
  const token = await withTransaction(deps.pool, async (client) => {
    const stored = await insertPersonalToken(client, { tokenId: randomUUID(), operatorId: operator.operatorId, name: request.name, tokenSha256: personalTokenHash(secret), lifetimeDays: request.lifetimeDays });
    await appendAuditEntryInTransaction(
      client,
      entry(operator, origin, { action: 'personal_token.create', target: { kind: 'personal_token', id: stored.tokenId }, outcome: 'done', after: { name: stored.name, operatorId: operator.operatorId, expiresAt: stored.expiresAt.toISOString() } }),
    );
    return stored;
  });
  return { kind: 'created', token, secret };
}

export async function listOwnPersonalTokens(deps: PeopleDependencies, operatorId: string): Promise<PersonalTokenSummary[]> {
  return personalTokensOf(deps.pool, operatorId);
}

export type RevokeTokenOutcome = { kind: 'revoked'; token: PersonalTokenSummary } | Refusal<'unknown-token' | 'not-active'>;

/** Revokes a token of one's own, or anyone's for an admin; another's token is unknown to a non-admin. */
export async function revokeOnePersonalToken(deps: PeopleDependencies, actorId: string, tokenId: string, origin: RequestOrigin): Promise<RevokeTokenOutcome> {
  const actor = await findOperatorById(deps.pool, actorId);
  if (actor?.status !== 'active') return { kind: 'refused', reason: 'not-active' };
  const target = { kind: 'personal_token', id: tokenId };
  const found = await findPersonalToken(deps.pool, tokenId);
  const allowed = found !== undefined && (found.operatorId === actor.operatorId || mayPerform(actor.roles, 'manage-operators'));
  const outcome = !allowed
    ? undefined
    : await withTransaction(deps.pool, async (client) => {
        const revoked = await revokePersonalToken(client, tokenId, actor.operatorId);
        if (revoked) await appendAuditEntryInTransaction(client, entry(actor, origin, { action: 'personal_token.revoke', target, outcome: 'done', before: { operatorId: revoked.operatorId, name: revoked.name, revoked: false }, after: { revoked: true } }));
        return revoked;
      });
  if (!outcome) {
    await appendAuditEntry(deps.pool, entry(actor, origin, { action: 'personal_token.revoke', target, outcome: 'refused', reason: found?.revokedAt ? 'the token was revoked already' : 'no such token among those this person may revoke' }));
    return { kind: 'refused', reason: 'unknown-token' };
  }
  return { kind: 'revoked', token: outcome };
}

/** The person a bearer token acts as, or undefined for any token that is not live (unknown, revoked, expired, person not active). */
export async function personOfPersonalToken(deps: PeopleDependencies, secret: string): Promise<{ tokenId: string; operatorId: string; expiresAt: Date } | undefined> {
  if (!looksLikePersonalToken(secret)) return undefined;
  return useLivePersonalToken(deps.pool, personalTokenHash(secret));
}

/** Every request made with a token is audited: the person, the token's id (never the token) and the endpoint; the route's own entries share the request id. */
export async function auditPersonalTokenUse(deps: PeopleDependencies, use: { operatorId: string; tokenId: string; endpoint: string }, origin: RequestOrigin): Promise<void> {
  const operator = await findOperatorById(deps.pool, use.operatorId);
  await appendAuditEntry(deps.pool, {
    ...entryOrigin(origin),
    actor: { kind: 'person', id: use.operatorId, displayName: operator?.displayName ?? 'unknown operator' },
    action: 'personal_token.use',
    target: { kind: 'personal_token', id: use.tokenId },
    outcome: 'done',
    after: { via: 'personal-token', endpoint: use.endpoint.slice(0, 200) },
  });
}

function entryOrigin(origin: RequestOrigin): Pick<AuditEntryInput, 'address' | 'userAgent' | 'requestId'> {
  return { address: origin.address, userAgent: origin.userAgent, requestId: origin.requestId };
}

function entry(operator: Operator, origin: RequestOrigin, fields: Pick<AuditEntryInput, 'action' | 'target' | 'outcome' | 'reason' | 'before' | 'after'>): AuditEntryInput {
  return { ...fields, ...entryOrigin(origin), actor: { kind: 'person', id: operator.operatorId, displayName: operator.displayName } };
}
