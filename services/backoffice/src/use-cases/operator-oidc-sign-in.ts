import { createHash, randomBytes } from 'node:crypto';
import { createSession, putOneTimeValue, takeOneTimeValue, normalisedEmail } from '@pwa/web-auth';
import { linkOidcSubject, operatorIdLinkedTo, recordOidcLinkUse } from '../store/oidc-link-store';
import { findOperatorByEmail, findOperatorById, type Operator } from '../store/operator-store';
import { OidcAnswerRefused, OidcProviderUnavailable, type OidcIdentity, type OidcIdentityProvider } from './oidc-identity-provider';
import { anonymous, audit, personOf } from './operator-sign-in';
import type { PeopleDependencies, RequestOrigin } from './people-dependencies';

/**
 * Sign-in with the company's identity provider (decision 0071). The start keeps the state, nonce
 * and PKCE verifier in Redis for one use within ten minutes, bound to a random value in a cookie of
 * the browser that started (so a callback carried to another browser, a login CSRF, finds nothing).
 * The callback spends them, lets the provider's ID token say who signed in, and admits only an
 * existing active operator: linked by the subject (issuer, sub) after the first sign-in, which
 * needs the provider's verified e-mail to match. Operators are never created from the provider.
 * The session is then as after a password: signed in when the provider says it did MFA (amr),
 * else waiting for the local second factor (TOTP or passkey). Every outcome is audited.
 */

/** How long a started sign-in may take at the provider. */
export const oidcFlowTtlMs = 10 * 60_000;

export interface StartedOidcSignIn {
  redirectTo: string;
  /** For the browser-binding cookie; only its hash is kept. */
  browserBinding: string;
}

function providerOf(deps: PeopleDependencies): OidcIdentityProvider {
  if (deps.oidc === undefined) throw new Error('Sign-in with an identity provider is not configured');
  return deps.oidc;
}

export async function startOidcSignIn(deps: PeopleDependencies): Promise<StartedOidcSignIn> {
  const state = randomBytes(32).toString('base64url');
  const nonce = randomBytes(32).toString('base64url');
  const codeVerifier = randomBytes(32).toString('base64url');
  const browserBinding = randomBytes(32).toString('base64url');
  const codeChallenge = createHash('sha256').update(codeVerifier, 'ascii').digest('base64url');
  const redirectTo = await providerOf(deps).authorizationUrl({ state, nonce, codeChallenge });
  await putOneTimeValue(deps.redis, deps.sessions, { purpose: 'oidc', handle: state, boundTo: browserBinding, value: JSON.stringify({ nonce, codeVerifier }), ttlMs: oidcFlowTtlMs });
  return { redirectTo, browserBinding };
}

/**
 * RFC 8176 methods that show the provider did more than one factor: `mfa` itself, or two of
 * knowledge (pwd, pin, kba), possession (hwk, swk, otp, sc) and inherence (fpt, face, iris,
 * retina, vbm, user). `sms` and `tel` are not counted (SIM swap), nor are risk or location signals.
 */
export function providerDidMfa(amr: readonly string[]): boolean {
  if (amr.includes('mfa')) return true;
  const categories = [
    ['pwd', 'pin', 'kba'],
    ['hwk', 'swk', 'otp', 'sc'],
    ['fpt', 'face', 'iris', 'retina', 'vbm', 'user'],
  ];
  return categories.filter((methods) => methods.some((method) => amr.includes(method))).length >= 2;
}

export type OidcCallbackOutcome =
  | { kind: 'signed-in' | 'mfa-required'; sessionId: string; csrfToken: string; operatorId: string }
  | { kind: 'refused'; reason: 'flow-unusable' | 'provider-refused' | 'not-linked' };

export async function finishOidcSignIn(
  deps: PeopleDependencies,
  request: { callbackUrl: string; state: string | undefined; browserBinding: string | undefined },
  origin: RequestOrigin,
): Promise<OidcCallbackOutcome> {
  const provider = providerOf(deps);
  const refuse = async (reason: 'flow-unusable' | 'provider-refused' | 'not-linked', why: string, operator?: Operator): Promise<OidcCallbackOutcome> => {
    await audit(deps, origin, { actor: operator ? personOf(operator) : anonymous, action: 'operator.sign_in.oidc', target: { kind: 'operator', id: operator?.operatorId ?? 'unknown' }, outcome: 'refused', reason: why });
    return { kind: 'refused', reason };
  };
  if (request.state === undefined || request.state === '' || request.state.length > 200 || request.browserBinding === undefined) {
    return refuse('flow-unusable', 'the callback came without its state or without the browser-binding cookie');
  }
  const kept = await takeOneTimeValue(deps.redis, deps.sessions, { purpose: 'oidc', handle: request.state, boundTo: request.browserBinding });
  if (kept === undefined) return refuse('flow-unusable', 'no sign-in was started with this state in this browser (unknown, used or expired)');
  const { nonce, codeVerifier } = JSON.parse(kept) as { nonce: string; codeVerifier: string };
  let identity: OidcIdentity;
  try {
    identity = await provider.finish({ callbackUrl: request.callbackUrl, state: request.state, nonce, codeVerifier });
  } catch (error) {
    if (error instanceof OidcAnswerRefused) return refuse('provider-refused', error.message);
    // The provider away at the exchange: the state is spent, the person starts again; audited, then answered 503.
    if (error instanceof OidcProviderUnavailable) await refuse('provider-refused', error.message);
    throw error;
  }
  const matched = await operatorOf(deps, identity, origin);
  if (matched.kind === 'refused') return refuse('not-linked', matched.why, matched.operator);
  const { operator } = matched;
  await recordOidcLinkUse(deps.pool, identity.issuer, identity.subject);
  const mfaDone = providerDidMfa(identity.amr);
  const issued = await createSession(deps.redis, deps.sessions, {
    subjectId: operator.operatorId,
    stage: mfaDone ? 'signed_in' : 'mfa_pending',
    attributes: mfaDone ? { method: 'oidc', mfa: 'identity-provider' } : { method: 'oidc' },
  });
  await audit(deps, origin, {
    actor: personOf(operator),
    action: 'operator.sign_in.oidc',
    target: { kind: 'operator', id: operator.operatorId },
    after: { issuer: identity.issuer, subject: identity.subject, amr: identity.amr, secondFactor: mfaDone ? 'done at the identity provider' : 'required here' },
    outcome: 'done',
  });
  return { kind: mfaDone ? 'signed-in' : 'mfa-required', sessionId: issued.sessionId, csrfToken: issued.session.csrfToken, operatorId: operator.operatorId };
}

type Match = { kind: 'matched'; operator: Operator } | { kind: 'refused'; why: string; operator?: Operator };

/** The linked operator, or on first use the active operator whose address the provider verified (then linked). */
async function operatorOf(deps: PeopleDependencies, identity: OidcIdentity, origin: RequestOrigin): Promise<Match> {
  const linkedId = await operatorIdLinkedTo(deps.pool, identity.issuer, identity.subject);
  if (linkedId !== undefined) {
    const operator = await findOperatorById(deps.pool, linkedId);
    if (operator?.status !== 'active') return { kind: 'refused', why: `the linked operator is ${operator?.status ?? 'gone'}`, ...(operator ? { operator } : {}) };
    return { kind: 'matched', operator };
  }
  if (identity.email === undefined || !identity.emailVerified) return { kind: 'refused', why: `subject ${identity.subject} is not linked and the provider gave no verified e-mail` };
  const email = normalisedEmail(identity.email);
  const operator = email === undefined ? undefined : await findOperatorByEmail(deps.pool, email);
  if (!operator) return { kind: 'refused', why: `subject ${identity.subject} is not linked and no operator has its verified e-mail` };
  if (operator.status !== 'active') return { kind: 'refused', why: `the operator with this e-mail is ${operator.status}`, operator };
  if (!(await linkOidcSubject(deps.pool, { issuer: identity.issuer, subject: identity.subject, operatorId: operator.operatorId }))) {
    return { kind: 'refused', why: `the operator is linked to another subject at ${identity.issuer}`, operator };
  }
  await audit(deps, origin, {
    actor: personOf(operator),
    action: 'operator.oidc.link',
    target: { kind: 'operator', id: operator.operatorId },
    after: { issuer: identity.issuer, subject: identity.subject },
    outcome: 'done',
  });
  return { kind: 'matched', operator };
}
