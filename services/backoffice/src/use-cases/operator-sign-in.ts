import { appendAuditEntry, type AuditEntryInput } from '@pwa/audit';
import { checkSignInAllowed, completeMfaSignIn, createSession, readSession, recordSignInFailure, recordSignInSuccess, revokeSession, verifyPasswordOrDecoy, verifySealedTotpCode, normalisedEmail } from '@pwa/web-auth';
import { acceptTotpStep, findOperatorById, signInCredentialsOf, totpFactorOf } from '../store/operator-store';
import { totpSecretBinding, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

/**
 * Sign-in in two steps, MFA required. The password step answers the same refusal for an unknown
 * address, a disabled or invited person and a wrong password (and costs the same argon2 work), so
 * the answer never says whether an account exists; the throttle counts failures per address typed
 * and per client address and locks for a while after too many. A right password gives a session
 * that can only give the TOTP code; the right code (each time step once) makes it a signed-in
 * session under a new id (no fixation). Every outcome, refusals included, is in the audit log,
 * without the password, the code or the session id.
 */
export type PasswordStepOutcome =
  | { kind: 'mfa-required'; sessionId: string; csrfToken: string }
  | { kind: 'refused'; reason: 'wrong-credentials' }
  | { kind: 'refused'; reason: 'throttled'; retryAfterSeconds: number };

export async function signInWithPassword(deps: PeopleDependencies, request: { email: string; password: string }, origin: RequestOrigin): Promise<PasswordStepOutcome> {
  const identifier = normalisedEmail(request.email) ?? request.email.trim().toLowerCase();
  const attempt = { identifier, address: origin.address };
  const allowed = await checkSignInAllowed(deps.redis, deps.throttle, attempt);
  if (!allowed.allowed) {
    await audit(deps, origin, { actor: anonymous, action: 'operator.sign_in.password', target: { kind: 'sign_in', id: 'password' }, outcome: 'refused', reason: allowed.reason });
    return { kind: 'refused', reason: 'throttled', retryAfterSeconds: allowed.retryAfterSeconds };
  }
  const credentials = await signInCredentialsOf(deps.pool, identifier);
  const passwordRight = await verifyPasswordOrDecoy(credentials?.passwordHash, request.password);
  if (!credentials || !passwordRight) {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await audit(deps, origin, {
      actor: credentials ? personOf(credentials.operator) : anonymous,
      action: 'operator.sign_in.password',
      target: { kind: 'operator', id: credentials?.operator.operatorId ?? 'unknown' },
      outcome: 'refused',
      reason: credentials ? 'wrong password' : 'no active operator with this address',
    });
    return { kind: 'refused', reason: 'wrong-credentials' };
  }
  const issued = await createSession(deps.redis, deps.sessions, { subjectId: credentials.operator.operatorId, stage: 'mfa_pending', attributes: { method: 'password' } });
  await audit(deps, origin, { actor: personOf(credentials.operator), action: 'operator.sign_in.password', target: { kind: 'operator', id: credentials.operator.operatorId }, outcome: 'done' });
  return { kind: 'mfa-required', sessionId: issued.sessionId, csrfToken: issued.session.csrfToken };
}

export type TotpStepOutcome =
  | { kind: 'signed-in'; sessionId: string; csrfToken: string; operatorId: string }
  | { kind: 'refused'; reason: 'no-pending-sign-in' | 'wrong-code' };

export async function completeSignInWithTotp(deps: PeopleDependencies, request: { sessionId: string; code: string }, origin: RequestOrigin): Promise<TotpStepOutcome> {
  const lookup = await readSession(deps.redis, deps.sessions, request.sessionId, 'mfa_pending');
  if (!lookup.found) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const operator = await findOperatorById(deps.pool, lookup.session.subjectId);
  const factor = operator?.status === 'active' ? await totpFactorOf(deps.pool, operator.operatorId) : undefined;
  if (!operator || !factor) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const attempt = { identifier: operator.email, address: origin.address };
  const verification = await verifySealedTotpCode({
    sealedSecret: factor.sealedSecret,
    boundTo: totpSecretBinding(operator.operatorId),
    sealer: deps.sealer,
    code: request.code,
    lastAcceptedStep: factor.lastAcceptedStep,
    now: deps.now ?? Date.now,
  });
  // The step is spent by a conditional UPDATE: two sign-ins with the same code cannot both pass.
  if (!verification.accepted || !(await acceptTotpStep(deps.pool, operator.operatorId, verification.step))) {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.totp', target: { kind: 'operator', id: operator.operatorId }, outcome: 'refused', reason: verification.accepted ? 'replayed_code' : verification.reason });
    return { kind: 'refused', reason: 'wrong-code' };
  }
  const signedIn = await completeMfaSignIn(deps.redis, deps.sessions, request.sessionId, { attributes: { mfa: 'totp' } });
  if (!signedIn) return { kind: 'refused', reason: 'no-pending-sign-in' };
  await recordSignInSuccess(deps.redis, deps.throttle, attempt);
  await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.totp', target: { kind: 'operator', id: operator.operatorId }, outcome: 'done' });
  return { kind: 'signed-in', sessionId: signedIn.sessionId, csrfToken: signedIn.session.csrfToken, operatorId: operator.operatorId };
}

/** The actor of a sign-in step whose person is not known (an unknown address, a throttled attempt). */
export const anonymous = { kind: 'person', id: 'unidentified', displayName: 'unidentified' } as const;

export function personOf(operator: { operatorId: string; displayName: string }): AuditEntryInput['actor'] {
  return { kind: 'person', id: operator.operatorId, displayName: operator.displayName };
}

/** One sign-in or factor step in the audit log, with where the request came from; never a secret. */
export function audit(deps: PeopleDependencies, origin: RequestOrigin, entry: Pick<AuditEntryInput, 'actor' | 'action' | 'target' | 'outcome' | 'reason' | 'before' | 'after'>): Promise<unknown> {
  return appendAuditEntry(deps.pool, { ...entry, address: origin.address, userAgent: origin.userAgent, requestId: origin.requestId });
}

/** Sign-out: the session is revoked at once (not left to expire) and the sign-out audited. */
export async function signOut(deps: PeopleDependencies, request: { sessionId: string; operatorId: string }, origin: RequestOrigin): Promise<void> {
  await revokeSession(deps.redis, deps.sessions, request.sessionId);
  const operator = await findOperatorById(deps.pool, request.operatorId);
  await audit(deps, origin, { actor: operator ? personOf(operator) : { kind: 'person', id: request.operatorId, displayName: 'unknown operator' }, action: 'operator.sign_out', target: { kind: 'operator', id: request.operatorId }, outcome: 'done' });
}
