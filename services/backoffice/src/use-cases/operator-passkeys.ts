import { randomUUID } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  checkSignInAllowed,
  completeMfaSignIn,
  keepPasskeyChallenge,
  passkeyChallengeTtlMs,
  readSession,
  recordSignInFailure,
  recordSignInSuccess,
  signatureCounterOf,
  signatureCounterVerdict,
  takePasskeyChallenge,
  type Session,
} from '@pwa/web-auth';
import { findOperatorById, type Operator } from '../store/operator-store';
import { deletePasskey, insertPasskey, passkeyCountOf, passkeyCredentialOf, passkeysOf, recordPasskeyUse, type PasskeySummary } from '../store/passkey-store';
import { audit, personOf } from './operator-sign-in';
import type { PasskeySettings, PeopleDependencies, RequestOrigin } from './people-dependencies';
import { signInIsRecent } from './recent-sign-in';

/**
 * Passkeys (WebAuthn) as an operator's second factor (decision 0070). A signed-in operator
 * registers, lists and removes their own; the half-signed-in session the password gave completes
 * with a passkey assertion as it would with a TOTP code. Every challenge is kept in Redis bound to
 * the session that asked for it and taken once (libs/web-auth), user verification is required,
 * the RP ID and origin are the console's own, and the signature counter only moves forward (a
 * conditional UPDATE). Every outcome is audited with the credential id at most: never the public
 * key, the challenge or the session id.
 */

/** An operator keeps at most this many passkeys (a few devices and a spare key). */
export const passkeysPerOperatorMax = 10;

type Refusal<Reason extends string> = { kind: 'refused'; reason: Reason };

/** The relying party settings; the wiring always makes them (only hand-made test dependencies leave them out). */
function passkeySettingsOf(deps: PeopleDependencies): PasskeySettings {
  if (deps.passkeys === undefined) throw new Error('Passkeys need the relying party settings (PeopleDependencies.passkeys)');
  return deps.passkeys;
}

/** The WebAuthn user handle: the operator id's 16 bytes (no e-mail or name in it). */
function userHandleOf(operatorId: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(Buffer.from(operatorId.replace(/-/g, ''), 'hex'));
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
  const own = await passkeysOf(deps.pool, operator.operatorId);
  if (own.length >= passkeysPerOperatorMax) return { kind: 'refused', reason: 'too-many-passkeys' };
  const options = await generateRegistrationOptions({
    rpName: passkeySettingsOf(deps).rpName,
    rpID: passkeySettingsOf(deps).rpId,
    userName: operator.email,
    userDisplayName: operator.displayName,
    userID: userHandleOf(operator.operatorId),
    timeout: passkeyChallengeTtlMs,
    attestationType: 'none',
    // The person's own passkeys: the authenticator refuses to make a second credential for the same account.
    excludeCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    // ES256 (every platform authenticator), EdDSA, RS256 (Windows Hello).
    supportedAlgorithmIDs: [-7, -8, -257],
  });
  await keepPasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'registration', sessionId: request.sessionId, challenge: options.challenge });
  return { kind: 'options', options };
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
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: request.response,
      expectedChallenge: challenge,
      expectedOrigin: passkeySettingsOf(deps).origin,
      expectedRPID: passkeySettingsOf(deps).rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    return refuse('not-verified', `the registration was not verified: ${verifierProblem(error)}`);
  }
  if (!verification.verified) return refuse('not-verified', 'the registration was not verified');
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  if ((await passkeyCountOf(deps.pool, operator.operatorId)) >= passkeysPerOperatorMax) return refuse('too-many-passkeys', `the operator has ${passkeysPerOperatorMax} passkeys already`);
  const passkeyId = randomUUID();
  const transports = (credential.transports ?? []).filter((transport) => /^[a-z-]{1,20}$/.test(transport)).slice(0, 8);
  const stored = await insertPasskey(deps.pool, {
    passkeyId,
    operatorId: operator.operatorId,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    signCount: credential.counter,
    transports,
    name: request.name,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  });
  if (!stored) return refuse('already-registered', 'this credential id is registered already');
  await audit(deps, origin, {
    actor: personOf(operator),
    action: 'operator.passkey.register',
    target: { kind: 'passkey', id: passkeyId },
    after: { operatorId: operator.operatorId, credentialId: credential.id, name: request.name, deviceType: credentialDeviceType, backedUp: credentialBackedUp },
    outcome: 'done',
  });
  const passkey = (await passkeysOf(deps.pool, operator.operatorId)).find((each) => each.passkeyId === passkeyId);
  if (!passkey) throw new Error('A passkey just stored could not be read back');
  return { kind: 'registered', passkey };
}

export function listOwnPasskeys(deps: PeopleDependencies, operatorId: string): Promise<PasskeySummary[]> {
  return passkeysOf(deps.pool, operatorId);
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
  const removed = await deletePasskey(deps.pool, operator.operatorId, request.passkeyId);
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
  const own = await passkeysOf(deps.pool, operator.operatorId);
  if (own.length === 0) return { kind: 'refused', reason: 'no-passkeys' };
  const options = await generateAuthenticationOptions({
    rpID: passkeySettingsOf(deps).rpId,
    allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as never })),
    userVerification: 'required',
    timeout: passkeyChallengeTtlMs,
  });
  await keepPasskeyChallenge(deps.redis, deps.sessions, { ceremony: 'authentication', sessionId: request.sessionId, challenge: options.challenge });
  return { kind: 'options', options };
}

export type PasskeyStepOutcome =
  | { kind: 'signed-in'; sessionId: string; csrfToken: string; operatorId: string }
  | Refusal<'no-pending-sign-in' | 'challenge-unusable' | 'not-verified'>
  | { kind: 'refused'; reason: 'throttled'; retryAfterSeconds: number };

/**
 * The second factor given with a passkey: the session's challenge taken once, the credential one
 * of the person's own, the assertion verified (origin, RP ID, user verification, signature), the
 * counter moved forward by a conditional UPDATE; then the signed-in session under a new id.
 * A refusal counts as a failed sign-in, as a wrong TOTP code does.
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
  const credential = await passkeyCredentialOf(deps.pool, operator.operatorId, request.response.id);
  if (!credential) return refuse('not-verified', `credential ${request.response.id.slice(0, 100)} is not one of this operator's passkeys`);
  // The user handle, when the authenticator gives one, is the one registered with this person's credentials.
  const userHandle = request.response.response.userHandle;
  if (userHandle !== undefined && userHandle !== Buffer.from(userHandleOf(operator.operatorId)).toString('base64url')) {
    return refuse('not-verified', `credential ${credential.credentialId}: the user handle is not this operator's`);
  }
  const receivedCounter = signatureCounterOf(request.response.response.authenticatorData);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: request.response,
      expectedChallenge: challenge,
      expectedOrigin: passkeySettingsOf(deps).origin,
      expectedRPID: passkeySettingsOf(deps).rpId,
      requireUserVerification: true,
      credential: { id: credential.credentialId, publicKey: credential.publicKey, counter: credential.signCount, transports: credential.transports },
    });
  } catch (error) {
    const regressed = receivedCounter !== undefined && signatureCounterVerdict(credential.signCount, receivedCounter) === 'regressed';
    const why = regressed
      ? `credential ${credential.credentialId}: the signature counter did not advance (stored ${credential.signCount}, received ${receivedCounter}): a replay or a cloned authenticator`
      : `credential ${credential.credentialId}: ${verifierProblem(error)}`;
    return refuse('not-verified', why);
  }
  if (!verification.verified) return refuse('not-verified', `credential ${credential.credentialId}: the assertion was not verified`);
  if (!(await recordPasskeyUse(deps.pool, credential.passkeyId, credential.signCount, verification.authenticationInfo.newCounter))) {
    return refuse('not-verified', `credential ${credential.credentialId}: another sign-in used this signature counter first`);
  }
  const signedIn = await completeMfaSignIn(deps.redis, deps.sessions, request.sessionId, { attributes: { mfa: 'passkey' } });
  if (!signedIn) return { kind: 'refused', reason: 'no-pending-sign-in' };
  await recordSignInSuccess(deps.redis, deps.throttle, attempt);
  await audit(deps, origin, { actor: personOf(operator), action: 'operator.sign_in.passkey', target, after: { credentialId: credential.credentialId }, outcome: 'done' });
  return { kind: 'signed-in', sessionId: signedIn.sessionId, csrfToken: signedIn.session.csrfToken, operatorId: operator.operatorId };
}

/**
 * What went wrong in the verifier, for the audit log: its message names the check that failed
 * (origin, RP ID, user verification, signature) and the expected origin at most; the challenge
 * it compares is cut out, since a challenge is never written down.
 */
function verifierProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : 'verification failed';
  return message.replace(/challenge "[^"]*"/gi, 'challenge').replace(/[A-Za-z0-9_-]{32,}/g, '…').slice(0, 300);
}
