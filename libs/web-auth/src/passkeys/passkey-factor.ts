import { randomUUID } from 'node:crypto';
import type { Queryable } from '@pwa/db';
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
import type { Redis } from 'ioredis';
import type { OneTimeValueSettings } from '../one-time/one-time-values';
import { keepPasskeyChallenge, passkeyChallengeTtlMs, signatureCounterOf, signatureCounterVerdict } from './passkey-ceremonies';
import type { PasskeyStore, PasskeySummary } from './passkey-store';

/**
 * Passkeys (WebAuthn) as a person's second factor in either console (decision 0070): the options
 * for the browser and the verification of its answers with @simplewebauthn/server, against the
 * console's own relying party and passkey table. User verification is required; the challenge is
 * the one the console kept for the session (taken once by the caller, before anything is judged);
 * a credential is one of the person's own; the signature counter only moves forward (a conditional
 * UPDATE). The console around it decides who may ask (an active person, a recent sign-in), counts
 * failures in the sign-in throttle and writes its audit log; what it writes comes from `why` here,
 * which names the credential id at most: never the public key, the challenge or the session id.
 */
export interface PasskeyRelyingParty {
  rpId: string;
  origin: string;
  /** The name authenticators show beside the passkey. */
  rpName: string;
}

export interface PasskeyFactorContext {
  db: Queryable;
  redis: Redis;
  /** Where challenges wait between the options and the answer (the console's session settings). */
  challenges: OneTimeValueSettings;
  store: PasskeyStore;
  relyingParty: PasskeyRelyingParty;
  /** Who the people are, for the reasons written in the audit log: "operator", "member". */
  personNoun: string;
}

/** The person a ceremony is for. */
export interface PasskeyPerson {
  id: string;
  /** What the authenticator lists the passkey under (the e-mail address). */
  userName: string;
  displayName: string;
}

/** A person keeps at most this many passkeys (a few devices and a spare key). */
export const passkeysPerPersonMax = 10;

/** The WebAuthn user handle: the person id's 16 bytes (no e-mail or name in it). */
export function passkeyUserHandleOf(personId: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(Buffer.from(personId.replace(/-/g, ''), 'hex'));
}

export type PasskeyRegistrationOptions = { kind: 'options'; options: PublicKeyCredentialCreationOptionsJSON } | { kind: 'refused'; reason: 'too-many-passkeys' };

/** The options for navigator.credentials.create(); the challenge waits in Redis for this session only. */
export async function passkeyRegistrationOptionsFor(context: PasskeyFactorContext, person: PasskeyPerson, sessionId: string): Promise<PasskeyRegistrationOptions> {
  const own = await context.store.passkeysOf(context.db, person.id);
  if (own.length >= passkeysPerPersonMax) return { kind: 'refused', reason: 'too-many-passkeys' };
  const options = await generateRegistrationOptions({
    rpName: context.relyingParty.rpName,
    rpID: context.relyingParty.rpId,
    userName: person.userName,
    userDisplayName: person.displayName,
    userID: passkeyUserHandleOf(person.id),
    timeout: passkeyChallengeTtlMs,
    attestationType: 'none',
    // The person's own passkeys: the authenticator refuses to make a second credential for the same account.
    excludeCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as never })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    // ES256 (every platform authenticator), EdDSA, RS256 (Windows Hello).
    supportedAlgorithmIDs: [-7, -8, -257],
  });
  await keepPasskeyChallenge(context.redis, context.challenges, { ceremony: 'registration', sessionId, challenge: options.challenge });
  return { kind: 'options', options };
}

export type PasskeyRegistrationVerdict =
  | { kind: 'registered'; passkey: PasskeySummary; auditAfter: { credentialId: string; name: string; deviceType: string; backedUp: boolean } }
  | { kind: 'refused'; reason: 'not-verified' | 'already-registered' | 'too-many-passkeys'; why: string };

/** Verifies the authenticator's answer against the challenge the caller took, and stores the passkey. */
export async function storeVerifiedPasskey(
  context: PasskeyFactorContext,
  person: PasskeyPerson,
  request: { challenge: string; response: RegistrationResponseJSON; name: string },
): Promise<PasskeyRegistrationVerdict> {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: request.response,
      expectedChallenge: request.challenge,
      expectedOrigin: context.relyingParty.origin,
      expectedRPID: context.relyingParty.rpId,
      requireUserVerification: true,
    });
  } catch (error) {
    return { kind: 'refused', reason: 'not-verified', why: `the registration was not verified: ${verifierProblem(error)}` };
  }
  if (!verification.verified) return { kind: 'refused', reason: 'not-verified', why: 'the registration was not verified' };
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  if ((await context.store.passkeyCountOf(context.db, person.id)) >= passkeysPerPersonMax) {
    return { kind: 'refused', reason: 'too-many-passkeys', why: `the ${context.personNoun} has ${passkeysPerPersonMax} passkeys already` };
  }
  const passkeyId = randomUUID();
  const transports = (credential.transports ?? []).filter((transport) => /^[a-z-]{1,20}$/.test(transport)).slice(0, 8);
  const stored = await context.store.insertPasskey(context.db, {
    passkeyId,
    personId: person.id,
    credentialId: credential.id,
    publicKey: credential.publicKey,
    signCount: credential.counter,
    transports,
    name: request.name,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  });
  if (!stored) return { kind: 'refused', reason: 'already-registered', why: 'this credential id is registered already' };
  const passkey = (await context.store.passkeysOf(context.db, person.id)).find((each) => each.passkeyId === passkeyId);
  if (!passkey) throw new Error('A passkey just stored could not be read back');
  return { kind: 'registered', passkey, auditAfter: { credentialId: credential.id, name: request.name, deviceType: credentialDeviceType, backedUp: credentialBackedUp } };
}

export type PasskeySignInOptions = { kind: 'options'; options: PublicKeyCredentialRequestOptionsJSON } | { kind: 'refused'; reason: 'no-passkeys' };

/** The options for navigator.credentials.get() after the password: the person's own credentials only. */
export async function passkeySignInOptionsFor(context: PasskeyFactorContext, personId: string, sessionId: string): Promise<PasskeySignInOptions> {
  const own = await context.store.passkeysOf(context.db, personId);
  if (own.length === 0) return { kind: 'refused', reason: 'no-passkeys' };
  const options = await generateAuthenticationOptions({
    rpID: context.relyingParty.rpId,
    allowCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports as never })),
    userVerification: 'required',
    timeout: passkeyChallengeTtlMs,
  });
  await keepPasskeyChallenge(context.redis, context.challenges, { ceremony: 'authentication', sessionId, challenge: options.challenge });
  return { kind: 'options', options };
}

export type PasskeyAssertionVerdict = { kind: 'verified'; credentialId: string } | { kind: 'refused'; why: string };

/**
 * The second factor given with a passkey, checked against the challenge the caller took: the
 * credential one of the person's own, the user handle theirs, the assertion verified (origin, RP
 * ID, user verification, signature), the counter moved forward by a conditional UPDATE.
 */
export async function verifyPasskeyAssertion(context: PasskeyFactorContext, personId: string, request: { challenge: string; response: AuthenticationResponseJSON }): Promise<PasskeyAssertionVerdict> {
  const noun = context.personNoun;
  const credential = await context.store.passkeyCredentialOf(context.db, personId, request.response.id);
  if (!credential) return { kind: 'refused', why: `credential ${request.response.id.slice(0, 100)} is not one of this ${noun}'s passkeys` };
  // The user handle, when the authenticator gives one, is the one registered with this person's credentials.
  const userHandle = request.response.response.userHandle;
  if (userHandle !== undefined && userHandle !== Buffer.from(passkeyUserHandleOf(personId)).toString('base64url')) {
    return { kind: 'refused', why: `credential ${credential.credentialId}: the user handle is not this ${noun}'s` };
  }
  const receivedCounter = signatureCounterOf(request.response.response.authenticatorData);
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: request.response,
      expectedChallenge: request.challenge,
      expectedOrigin: context.relyingParty.origin,
      expectedRPID: context.relyingParty.rpId,
      requireUserVerification: true,
      credential: { id: credential.credentialId, publicKey: credential.publicKey, counter: credential.signCount, transports: credential.transports },
    });
  } catch (error) {
    const regressed = receivedCounter !== undefined && signatureCounterVerdict(credential.signCount, receivedCounter) === 'regressed';
    const why = regressed
      ? `credential ${credential.credentialId}: the signature counter did not advance (stored ${credential.signCount}, received ${receivedCounter}): a replay or a cloned authenticator`
      : `credential ${credential.credentialId}: ${verifierProblem(error)}`;
    return { kind: 'refused', why };
  }
  if (!verification.verified) return { kind: 'refused', why: `credential ${credential.credentialId}: the assertion was not verified` };
  if (!(await context.store.recordPasskeyUse(context.db, credential.passkeyId, credential.signCount, verification.authenticationInfo.newCounter))) {
    return { kind: 'refused', why: `credential ${credential.credentialId}: another sign-in used this signature counter first` };
  }
  return { kind: 'verified', credentialId: credential.credentialId };
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
