import { checkSignInAllowed, completeMfaSignIn, createSession, normalisedEmail, readSession, recordSignInFailure, recordSignInSuccess, revokeSession, verifyPasswordOrDecoy, verifySealedTotpCode } from '@pwa/web-auth';
import { acceptTotpStep, findMemberById, signInCredentialsOf, totpFactorOf, type Member } from '../store/member-store';
import { auditOf, personOf, totpSecretBinding, unidentified, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

/**
 * Sign-in in two steps, MFA required, as in the back-office (decision 0061): the password step
 * answers the same refusal for an unknown address, a removed or invited member and a wrong password
 * (at the same argon2 cost); the throttle locks after too many failures per address typed and per
 * client address; the right TOTP code (each step once) turns the half session into a signed-in one
 * under a new id. Every outcome is in the partner's audit log (when the partner is known), never
 * the password, the code or the session id.
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
    await auditOf(deps, origin, { actor: unidentified, action: 'member.sign_in.password', target: { kind: 'sign_in', id: 'password' }, outcome: 'refused', reason: allowed.reason });
    return { kind: 'refused', reason: 'throttled', retryAfterSeconds: allowed.retryAfterSeconds };
  }
  const credentials = await signInCredentialsOf(deps.pool, identifier);
  const passwordRight = await verifyPasswordOrDecoy(credentials?.passwordHash, request.password);
  if (!credentials || !passwordRight) {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await auditOf(deps, origin, {
      actor: credentials ? personOf(credentials.member) : unidentified,
      action: 'member.sign_in.password',
      target: { kind: 'member', id: credentials?.member.memberId ?? 'unknown' },
      partnerId: credentials?.member.partnerId ?? null,
      outcome: 'refused',
      reason: credentials ? 'wrong password' : 'no active member with this address',
    });
    return { kind: 'refused', reason: 'wrong-credentials' };
  }
  const { member } = credentials;
  const issued = await createSession(deps.redis, deps.sessions, { subjectId: member.memberId, stage: 'mfa_pending', attributes: { method: 'password' } });
  await auditOf(deps, origin, { actor: personOf(member), action: 'member.sign_in.password', target: { kind: 'member', id: member.memberId }, partnerId: member.partnerId, outcome: 'done' });
  return { kind: 'mfa-required', sessionId: issued.sessionId, csrfToken: issued.session.csrfToken };
}

export type TotpStepOutcome = { kind: 'signed-in'; sessionId: string; csrfToken: string } | { kind: 'refused'; reason: 'no-pending-sign-in' | 'wrong-code' };

export async function completeSignInWithTotp(deps: PeopleDependencies, request: { sessionId: string; code: string }, origin: RequestOrigin): Promise<TotpStepOutcome> {
  const lookup = await readSession(deps.redis, deps.sessions, request.sessionId, 'mfa_pending');
  if (!lookup.found) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const member = await findMemberById(deps.pool, lookup.session.subjectId);
  if (member?.status !== 'active') return { kind: 'refused', reason: 'no-pending-sign-in' };
  const attempt = { identifier: member.email, address: origin.address };
  if (!(await spendTotpCode(deps, member, request.code))) {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await auditOf(deps, origin, { actor: personOf(member), action: 'member.sign_in.totp', target: { kind: 'member', id: member.memberId }, partnerId: member.partnerId, outcome: 'refused', reason: 'wrong or used code' });
    return { kind: 'refused', reason: 'wrong-code' };
  }
  const signedIn = await completeMfaSignIn(deps.redis, deps.sessions, request.sessionId, { attributes: { mfa: 'totp' } });
  if (!signedIn) return { kind: 'refused', reason: 'no-pending-sign-in' };
  await recordSignInSuccess(deps.redis, deps.throttle, attempt);
  await auditOf(deps, origin, { actor: personOf(member), action: 'member.sign_in.totp', target: { kind: 'member', id: member.memberId }, partnerId: member.partnerId, outcome: 'done' });
  return { kind: 'signed-in', sessionId: signedIn.sessionId, csrfToken: signedIn.session.csrfToken };
}

/**
 * A TOTP code of the member, spent: true only when it is right and its step was not used before
 * (a conditional UPDATE, so two requests with one code cannot both pass). The sign-in's second step
 * and the fresh check before an admin's change both go through here.
 */
export async function spendTotpCode(deps: Pick<PeopleDependencies, 'pool' | 'sealer' | 'now'>, member: Pick<Member, 'memberId'>, code: string): Promise<boolean> {
  const factor = await totpFactorOf(deps.pool, member.memberId);
  if (!factor) return false;
  const verification = await verifySealedTotpCode({
    sealedSecret: factor.sealedSecret,
    boundTo: totpSecretBinding(member.memberId),
    sealer: deps.sealer,
    code,
    lastAcceptedStep: factor.lastAcceptedStep,
    now: deps.now ?? Date.now,
  });
  return verification.accepted && (await acceptTotpStep(deps.pool, member.memberId, verification.step));
}

/** Sign-out: the session is revoked at once and the sign-out audited. */
export async function signOut(deps: PeopleDependencies, request: { sessionId: string; member: Member }, origin: RequestOrigin): Promise<void> {
  await revokeSession(deps.redis, deps.sessions, request.sessionId);
  await auditOf(deps, origin, { actor: personOf(request.member), action: 'member.sign_out', target: { kind: 'member', id: request.member.memberId }, partnerId: request.member.partnerId, outcome: 'done' });
}
