import type { Session } from '@pwa/web-auth';
import type { PeopleDependencies } from './people-dependencies';

/** Without the passkey settings (hand-made test dependencies), the same 15 minutes the wiring gives. */
const recentSignInMsDefault = 15 * 60_000;

/** When the signed-in stage began: the absolute end minus the absolute timeout (rotation keeps the end). */
export function signedInAtMs(deps: PeopleDependencies, session: Session): number {
  return session.expiresAtMs - deps.sessions.absoluteTimeoutMs;
}

/**
 * Whether the session signed in recently enough to change a factor or make a credential (a passkey,
 * a personal token): a session left open on a desk cannot mint lasting access (decisions 0070, 0072).
 */
export function signInIsRecent(deps: PeopleDependencies, session: Session): boolean {
  return (deps.now ?? Date.now)() - signedInAtMs(deps, session) <= (deps.passkeys?.recentSignInMs ?? recentSignInMsDefault);
}
