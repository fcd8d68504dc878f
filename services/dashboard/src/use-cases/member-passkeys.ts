import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  checkSignInAllowed,
  completeMfaSignIn,
  passkeyRegistrationOptionsFor,
  passkeySignInOptionsFor,
  readSession,
  recordSignInFailure,
  recordSignInSuccess,
  storeVerifiedPasskey,
  takePasskeyChallenge,
  verifyPasskeyAssertion,
  type PasskeyFactorContext,
  type PasskeySummary,
} from '@pwa/web-auth';
import { findMemberById, memberPasskeys, type Member } from '../store/member-store';
import { auditOf, personOf, type PeopleDependencies, type RequestOrigin } from './people-dependencies';

/**
 * Passkeys (WebAuthn) as a member's second factor, beside the TOTP factor every member enrols: a
 * signed-in member adds, lists and removes their own (adding and removing behind the fresh MFA
 * check, as any change of a factor); the half-signed-in session the password gave completes with a
 * passkey as it would with a code. The ceremonies are libs/web-auth's, shared with the back-office
 * (decision 0070); here: who may ask, the throttle, and the partner's audit log, which names the
 * credential id at most.
 */
type Refusal<Reason extends string> = { kind: 'refused'; reason: Reason };

function passkeyContextOf(deps: PeopleDependencies): PasskeyFactorContext {
  return { db: deps.pool, redis: deps.redis, challenges: deps.sessions, store: memberPasskeys, relyingParty: deps.passkeys, personNoun: 'member' };
}

const personForPasskeys = (member: Member) => ({ id: member.memberId, userName: member.email, displayName: member.displayName });

export function listOwnPasskeys(deps: PeopleDependencies, member: Member): Promise<PasskeySummary[]> {
  return memberPasskeys.passkeysOf(deps.pool, member.memberId);
}

export type RegistrationOptionsOutcome = { kind: 'options'; options: PublicKeyCredentialCreationOptionsJSON } | Refusal<'too-many-passkeys'>;

/** The options for navigator.credentials.create() (the route checked the fresh MFA); the challenge waits for this session only. */
export function passkeyRegistrationOptions(deps: PeopleDependencies, member: Member, sessionId: string): Promise<RegistrationOptionsOutcome> {
  return passkeyRegistrationOptionsFor(passkeyContextOf(deps), personForPasskeys(member), sessionId);
}

export type RegisterPasskeyOutcome = { kind: 'registered'; passkey: PasskeySummary } | Refusal<'challenge-unusable' | 'not-verified' | 'already-registered' | 'too-many-passkeys'>;

/** Verifies the authenticator's answer to this session's registration options (taken once) and stores the passkey. */
export async function registerPasskey(deps: PeopleDependencies, member: Member, request: { sessionId: string; response: RegistrationResponseJSON; name: string }, origin: RequestOrigin): Promise<RegisterPasskeyOutcome> {
  const entry = { actor: personOf(member), action: 'member.passkey.register', partnerId: member.partnerId } as const;
  const challenge = await takePasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'registration', sessionId: request.sessionId });
  if (challenge === undefined) {
    await auditOf(deps, origin, { ...entry, target: { kind: 'member', id: member.memberId }, outcome: 'refused', reason: 'no registration challenge for this session (expired, used or never asked for)' });
    return { kind: 'refused', reason: 'challenge-unusable' };
  }
  const verdict = await storeVerifiedPasskey(passkeyContextOf(deps), personForPasskeys(member), { challenge, response: request.response, name: request.name });
  if (verdict.kind === 'refused') {
    await auditOf(deps, origin, { ...entry, target: { kind: 'member', id: member.memberId }, outcome: 'refused', reason: verdict.why });
    return { kind: 'refused', reason: verdict.reason };
  }
  await auditOf(deps, origin, { ...entry, target: { kind: 'passkey', id: verdict.passkey.passkeyId }, after: { memberId: member.memberId, ...verdict.auditAfter }, outcome: 'done' });
  return { kind: 'registered', passkey: verdict.passkey };
}

/** Removes one of the member's own passkeys (the route checked the fresh MFA); another person's is as unknown as none. */
export async function removeOwnPasskey(deps: PeopleDependencies, member: Member, passkeyId: string, origin: RequestOrigin): Promise<{ kind: 'removed' } | Refusal<'unknown-passkey'>> {
  const entry = { actor: personOf(member), action: 'member.passkey.remove', target: { kind: 'passkey', id: passkeyId }, partnerId: member.partnerId } as const;
  const removed = await memberPasskeys.deletePasskey(deps.pool, member.memberId, passkeyId);
  if (!removed) {
    await auditOf(deps, origin, { ...entry, outcome: 'refused', reason: 'no passkey of this member with this id' });
    return { kind: 'refused', reason: 'unknown-passkey' };
  }
  await auditOf(deps, origin, { ...entry, before: { memberId: member.memberId, credentialId: removed.credentialId, name: removed.name }, outcome: 'done' });
  return { kind: 'removed' };
}

/** The second factors the half-signed-in member may use: the code always, a passkey when they have one. */
export async function secondFactorsOf(deps: PeopleDependencies, memberId: string): Promise<Array<'totp' | 'passkey'>> {
  return (await memberPasskeys.passkeyCountOf(deps.pool, memberId)) > 0 ? ['totp', 'passkey'] : ['totp'];
}

async function pendingMember(deps: PeopleDependencies, sessionId: string): Promise<Member | undefined> {
  const lookup = await readSession(deps.redis, deps.sessions, sessionId, 'mfa_pending');
  if (!lookup.found) return undefined;
  const member = await findMemberById(deps.pool, lookup.session.subjectId);
  return member?.status === 'active' ? member : undefined;
}

export type SignInOptionsOutcome = { kind: 'options'; options: PublicKeyCredentialRequestOptionsJSON } | Refusal<'no-pending-sign-in' | 'no-passkeys'>;

/** The options for navigator.credentials.get() after the password: the member's own credentials only. */
export async function passkeySignInOptions(deps: PeopleDependencies, sessionId: string): Promise<SignInOptionsOutcome> {
  const member = await pendingMember(deps, sessionId);
  if (!member) return { kind: 'refused', reason: 'no-pending-sign-in' };
  return passkeySignInOptionsFor(passkeyContextOf(deps), member.memberId, sessionId);
}

export type PasskeyStepOutcome =
  | { kind: 'signed-in'; sessionId: string; csrfToken: string }
  | Refusal<'no-pending-sign-in' | 'challenge-unusable' | 'not-verified'>
  | { kind: 'refused'; reason: 'throttled'; retryAfterSeconds: number };

/**
 * The second step with a passkey: the session's challenge taken once, the assertion verified
 * (libs/web-auth), then the signed-in session under a new id. A refusal counts in the sign-in
 * throttle as a wrong code does.
 */
export async function completeSignInWithPasskey(deps: PeopleDependencies, request: { sessionId: string; response: AuthenticationResponseJSON }, origin: RequestOrigin): Promise<PasskeyStepOutcome> {
  const member = await pendingMember(deps, request.sessionId);
  if (!member) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const attempt = { identifier: member.email, address: origin.address };
  const allowed = await checkSignInAllowed(deps.redis, deps.throttle, attempt);
  const challenge = await takePasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'authentication', sessionId: request.sessionId });
  const entry = { actor: personOf(member), action: 'member.sign_in.passkey', target: { kind: 'member', id: member.memberId }, partnerId: member.partnerId } as const;
  if (!allowed.allowed) {
    await auditOf(deps, origin, { ...entry, outcome: 'refused', reason: allowed.reason });
    return { kind: 'refused', reason: 'throttled', retryAfterSeconds: allowed.retryAfterSeconds };
  }
  const refuse = async <Reason extends 'challenge-unusable' | 'not-verified'>(reason: Reason, why: string): Promise<Refusal<Reason>> => {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await auditOf(deps, origin, { ...entry, outcome: 'refused', reason: why });
    return { kind: 'refused', reason };
  };
  if (challenge === undefined) return refuse('challenge-unusable', 'no passkey challenge for this session (expired, used or never asked for)');
  const verdict = await verifyPasskeyAssertion(passkeyContextOf(deps), member.memberId, { challenge, response: request.response });
  if (verdict.kind === 'refused') return refuse('not-verified', verdict.why);
  const signedIn = await completeMfaSignIn(deps.redis, deps.sessions, request.sessionId, { attributes: { mfa: 'passkey' } });
  if (!signedIn) return { kind: 'refused', reason: 'no-pending-sign-in' };
  await recordSignInSuccess(deps.redis, deps.throttle, attempt);
  await auditOf(deps, origin, { ...entry, after: { credentialId: verdict.credentialId }, outcome: 'done' });
  return { kind: 'signed-in', sessionId: signedIn.sessionId, csrfToken: signedIn.session.csrfToken };
}
