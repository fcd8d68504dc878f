/**
 * @pwa/web-auth: how people sign in to the consoles (back-office and partner dashboard), shared so
 * the two services never import each other. Framework-free: pure functions, and Redis stores that
 * take the connection and settings the service made at start.
 */
export {
  hashPassword,
  verifyPassword,
  verifyPasswordOrDecoy,
  passwordHashNeedsUpgrade,
  passwordHashParametersOf,
  passwordHashParameters,
  decoyPasswordHash,
} from './passwords/password-hashing';
export {
  checkPasswordPolicy,
  passwordRuleMessages,
  normalisePassword,
  passwordLengthMin,
  passwordLengthMax,
  type PasswordRule,
  type PasswordPolicyResult,
  type PasswordContext,
} from './passwords/password-policy';
export { commonPasswords } from './passwords/common-passwords';

export type { SecretSealer } from './mfa/secret-sealer';
export { generateTotpSecret, totpEnrolmentText, verifyTotpCode, totpCodeAt, totpParameters, type TotpEnrolmentText, type TotpVerification } from './mfa/totp';
export { createTotpEnrolment, verifySealedTotpCode, type TotpEnrolment, type TotpEnrolmentRequest, type SealedTotpAttempt } from './mfa/sealed-totp';

export { checkSessionSettings, defaultSessionTimeouts, type SessionSettings } from './sessions/session-settings';
export { judgeSession, newSessionRecord, sessionKeyTtlMs, type Session, type SessionJudgement, type SessionStage } from './sessions/session-record';
export { csrfTokenMatches, generateCsrfToken, generateSessionId, isWellFormedSessionId, sessionIdHash } from './sessions/session-tokens';
export {
  createSession,
  readSession,
  rotateSession,
  completeMfaSignIn,
  revokeSession,
  revokeAllSessionsOf,
  type IssuedSession,
  type NewSession,
  type SessionLookup,
} from './sessions/session-store';

export {
  checkSignInThrottlePolicy,
  decideSignInAttempt,
  defaultSignInThrottlePolicy,
  normaliseSignInIdentifier,
  type SignInThrottleDecision,
  type SignInThrottlePolicy,
  type SignInThrottleState,
} from './sign-in-throttle/sign-in-throttle-policy';
export { addressBucketOf } from '@pwa/redis';
export {
  checkSignInAllowed,
  readSignInThrottleState,
  recordSignInFailure,
  recordSignInSuccess,
  type SignInAttempt,
  type SignInThrottleSettings,
} from './sign-in-throttle/sign-in-throttle-store';

export { consoleContentSecurityPolicy, consoleSecurityHeaders, type ConsoleSecurityHeaderOptions } from './http/security-headers';
export { expiredHostCookie, hostCookie, hostCookieName, readHostCookie, type HostCookieOptions } from './http/cookies';
export { isSameOriginRequest, isStateChangingMethod } from './http/request-checks';

export { putOneTimeValue, takeOneTimeValue, type OneTimeValueHandle, type OneTimeValueSettings } from './one-time/one-time-values';
export {
  keepPasskeyChallenge,
  takePasskeyChallenge,
  passkeyChallengeTtlMs,
  passkeyRelyingPartyOf,
  signatureCounterOf,
  signatureCounterVerdict,
  type PasskeyCeremony,
} from './passkeys/passkey-ceremonies';
export { passkeyStoreOf, type PasskeyStore, type PasskeyTable, type PasskeySummary, type PasskeyCredential, type NewPasskey } from './passkeys/passkey-store';
export {
  passkeyRegistrationOptionsFor,
  passkeySignInOptionsFor,
  passkeyUserHandleOf,
  passkeysPerPersonMax,
  storeVerifiedPasskey,
  verifyPasskeyAssertion,
  type PasskeyAssertionVerdict,
  type PasskeyFactorContext,
  type PasskeyPerson,
  type PasskeyRegistrationOptions,
  type PasskeyRegistrationVerdict,
  type PasskeyRelyingParty,
  type PasskeySignInOptions,
} from './passkeys/passkey-factor';
export { passkeyAuthenticationBody, passkeyRegistrationBody } from './passkeys/passkey-bodies';
export { passkeySignInRefusalError, type PasskeySignInRefusal } from './passkeys/passkey-refusals';
export { newSetupToken, setupTokenDigest, setupLinkUrl, setupLinkLifetimeSeconds, normalisedEmail, type SetupToken } from './links/setup-links';
export { listenConsole, requireForwardedHttps, type ConsoleListenerSettings, type PlainHttpOutcome } from './http/console-listener';
export { mountConsolePages } from './http/console-pages';
export { consoleHeaders, sessionCookie, type SessionCookie } from './http/console-session-cookie';
export { unidentifiedRefusalRecording, unidentifiedRefusalsPerAddressPerMinute, type UnidentifiedRefusalRecording } from './http/unidentified-refusal-cap';
export { originOf, parsedInput, type RequestOrigin } from './http/console-input';
