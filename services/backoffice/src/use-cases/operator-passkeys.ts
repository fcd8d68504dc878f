import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  checkSignInAllowed,
  completeMfaSignIn,
  passkeyRegistrationOptionsFor,
  passkeySignInOptionsFor,
  passkeysPerPersonMax,
  readSession,
  recordSignInFailure,
  recordSignInSuccess,
  storeVerifiedPasskey,
  takePasskeyChallenge,
  verifyPasskeyAssertion,
  type PasskeyFactorContext,
  type PasskeyPerson,
  type PasskeySummary,
  type Session,
} from '@pwa/web-auth';
import { findOperatorById, type Operator } from '../store/operator-store';
import { operatorPasskeys } from '../store/passkey-store';
import { audit, personOf } from './operator-sign-in';
import type { PeopleDependencies, RequestOrigin } from './people-dependencies';
import { signInIsRecent } from './recent-sign-in';

/**
 * Passkeys (WebAuthn) as an operator's second factor (decision 0070). A signed-in operator
 * registers, lists and removes their own; the half-signed-in session the password gave completes
 * with a passkey assertion as it would with a TOTP code. The ceremonies themselves (options,
 * verification, the counter) are libs/web-auth's, shared with the dashboard; here: who may ask,
 * the recent sign-in, the throttle and the audit log, with the credential id at most: never the
 * public key, the challenge or the session id.
 */

/** An operator keeps at most this many passkeys (a few devices and a spare key). */
export const passkeysPerOperatorMax = passkeysPerPersonMax;

type Refusal<Reason extends string> = { kind: 'refused'; reason: Reason };

/** The ceremonies' context: the relying party settings the wiring always makes (only hand-made test dependencies leave them out). */
function passkeyContextOf(deps: PeopleDependencies): PasskeyFactorContext {
  if (deps.passkeys === undefined) throw new Error('Passkeys need the relying party settings (PeopleDependencies.passkeys)');
  return { db: deps.pool, redis: deps.redis, challenges: deps.sessions, store: operatorPasskeys, relyingParty: deps.passkeys, personNoun: 'operator' };
}

function passkeyPersonOf(operator: Operator): PasskeyPerson {
  return { id: operator.operatorId, userName: operator.email, displayName: operator.displayName };
}

async function activeOperator(deps: PeopleDependencies, operatorId: string): Promise<Operator | undefined> {
  const operator = await findOperatorById(deps.pool, operatorId);
  return operator?.status === 'active' ? operator : undefined;
}

export type RegistrationOptionsOutcome = { kind: 'options'; options: PublicKeyCredentialCreationOptionsJSON } | Refusal<'sign-in-not-recent' | 'too-many-passkeys' | 'not-active'>;

/** The options for navigator.credentials.create(); the challenge waits in Redis for this session only. */
export async function passkeyRegistrationOptions(deps: PeopleDependencies, request: { sessionId: string; session: Session }): Promise<RegistrationOptionsOutcome> {
  const operator = await activeOperator(deps, request.session.subjectId);
  if (!operator) return { kind: 'refused', reason: 'not-active' };
  if (!signInIsRecent(deps, request.session)) return { kind: 'refused', reason: 'sign-in-not-recent' };
  return passkeyRegistrationOptionsFor(passkeyContextOf(deps), passkeyPersonOf(operator), request.sessionId);
}

type RegistrationRefusal = 'sign-in-not-recent' | 'challenge-unusable' | 'not-verified' | 'already-registered' | 'too-many-passkeys' | 'not-active';

export type RegisterPasskeyOutcome = { kind: 'registered'; passkey: PasskeySummary } | Refusal<RegistrationRefusal>;

/** Verifies the authenticator's answer to the registration options and stores the passkey. */
export async function registerPasskey(
  deps: PeopleDependencies,
  request: { sessionId: string; session: Session; response: RegistrationResponseJSON; name: string },
  origin: RequestOrigin,
): Promise<RegisterPasskeyOutcome> {
  const operator = await activeOperator(deps, request.session.subjectId);
  if (!operator) return { kind: 'refused', reason: 'not-active' };
  const refuse = async (reason: RegistrationRefusal, why: string): Promise<Refusal<RegistrationRefusal>> => {
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.passkey.register', target: { kind: 'operator', id: operator.operatorId }, outcome: 'refused', reason: why });
    return { kind: 'refused', reason };
  };
  // The challenge is spent before anything else is checked: an answer is judged once.
  const challenge = await takePasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'registration', sessionId: request.sessionId });
  if (!signInIsRecent(deps, request.session)) return refuse('sign-in-not-recent', 'the sign-in is not recent enough to add a factor');
  if (challenge === undefined) return refuse('challenge-unusable', 'no registration challenge for this session (expired, used or never asked for)');
  const verdict = await storeVerifiedPasskey(passkeyContextOf(deps), passkeyPersonOf(operator), { challenge, response: request.response, name: request.name });
  if (verdict.kind === 'refused') return refuse(verdict.reason, verdict.why);
  await audit(deps, origin, {
    actor: personOf(operator),
    action: 'operator.passkey.register',
    target: { kind: 'passkey', id: verdict.passkey.passkeyId },
    after: { operatorId: operator.operatorId, ...verdict.auditAfter },
    outcome: 'done',
  });
  return { kind: 'registered', passkey: verdict.passkey };
}

export function listOwnPasskeys(deps: PeopleDependencies, operatorId: string): Promise<PasskeySummary[]> {
  return operatorPasskeys.passkeysOf(deps.pool, operatorId);
}

export type RemovePasskeyOutcome = { kind: 'removed' } | Refusal<'sign-in-not-recent' | 'unknown-passkey' | 'not-active'>;

/** Removes one of the person's own passkeys; another person's is as unknown as none. */
export async function removeOwnPasskey(deps: PeopleDependencies, request: { session: Session; passkeyId: string }, origin: RequestOrigin): Promise<RemovePasskeyOutcome> {
  const operator = await activeOperator(deps, request.session.subjectId);
  if (!operator) return { kind: 'refused', reason: 'not-active' };
  const target = { kind: 'passkey', id: request.passkeyId };
  if (!signInIsRecent(deps, request.session)) {
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.passkey.remove', target, outcome: 'refused', reason: 'the sign-in is not recent enough to remove a factor' });
    return { kind: 'refused', reason: 'sign-in-not-recent' };
  }
  const removed = await operatorPasskeys.deletePasskey(deps.pool, operator.operatorId, request.passkeyId);
  if (!removed) {
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.passkey.remove', target, outcome: 'refused', reason: 'no passkey of this operator with this id' });
    return { kind: 'refused', reason: 'unknown-passkey' };
  }
  await audit(deps, origin, { actor: personOf(operator), action: 'operator.passkey.remove', target, before: { operatorId: operator.operatorId, credentialId: removed.credentialId, name: removed.name }, outcome: 'done' });
  return { kind: 'removed' };
}

export type SignInOptionsOutcome = { kind: 'options'; options: PublicKeyCredentialRequestOptionsJSON } | Refusal<'no-pending-sign-in' | 'no-passkeys'>;

/** The options for navigator.credentials.get() after the password: the person's own credentials only. */
export async function passkeySignInOptions(deps: PeopleDependencies, request: { sessionId: string; session: Session }): Promise<SignInOptionsOutcome> {
  const operator = await activeOperator(deps, request.session.subjectId);
  if (!operator) return { kind: 'refused', reason: 'no-pending-sign-in' };
  return passkeySignInOptionsFor(passkeyContextOf(deps), operator.operatorId, request.sessionId);
}

export type PasskeyStepOutcome =
  | { kind: 'signed-in'; sessionId: string; csrfToken: string; operatorId: string }
  | Refusal<'no-pending-sign-in' | 'challenge-unusable' | 'not-verified'>
  | { kind: 'refused'; reason: 'throttled'; retryAfterSeconds: number };

/**
 * The second factor given with a passkey: the session's challenge taken once, the assertion
 * verified (libs/web-auth); then the signed-in session under a new id. A refusal counts as a
 * failed sign-in, as a wrong TOTP code does.
 */
export async function completeSignInWithPasskey(deps: PeopleDependencies, request: { sessionId: string; response: AuthenticationResponseJSON }, origin: RequestOrigin): Promise<PasskeyStepOutcome> {
  const lookup = await readSession(deps.redis, deps.sessions, request.sessionId, 'mfa_pending');
  if (!lookup.found) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const operator = await activeOperator(deps, lookup.session.subjectId);
  if (!operator) return { kind: 'refused', reason: 'no-pending-sign-in' };
  const attempt = { identifier: operator.email, address: origin.address };
  const allowed = await checkSignInAllowed(deps.redis, deps.throttle, attempt);
  const challenge = await takePasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'authentication', sessionId: request.sessionId });
  const target = { kind: 'operator', id: operator.operatorId };
  if (!allowed.allowed) {
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.passkey', target, outcome: 'refused', reason: allowed.reason });
    return { kind: 'refused', reason: 'throttled', retryAfterSeconds: allowed.retryAfterSeconds };
  }
  const refuse = async <Reason extends 'challenge-unusable' | 'not-verified'>(reason: Reason, why: string): Promise<Refusal<Reason>> => {
    await recordSignInFailure(deps.redis, deps.throttle, attempt);
    await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.passkey', target, outcome: 'refused', reason: why });
    return { kind: 'refused', reason };
  };
  if (challenge === undefined) return refuse('challenge-unusable', 'no passkey challenge for this session (expired, used or never asked for)');
  const verdict = await verifyPasskeyAssertion(passkeyContextOf(deps), operator.operatorId, { challenge, response: request.response });
  if (verdict.kind === 'refused') return refuse('not-verified', verdict.why);
  const signedIn = await completeMfaSignIn(deps.redis, deps.sessions, request.sessionId, { attributes: { mfa: 'passkey' } });
  if (!signedIn) return { kind: 'refused', reason: 'no-pending-sign-in' };
  await recordSignInSuccess(deps.redis, deps.throttle, attempt);
  await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.passkey', target, after: { credentialId: verdict.credentialId }, outcome: 'done' });
  return { kind: 'signed-in', sessionId: signedIn.sessionId, csrfToken: signedIn.session.csrfToken, operatorId: operator.operatorId };
}
