import { ConsoleError } from '@pwa/errors';

/**
 * What a console answers when a passkey step is refused, the same in both consoles: the reasons
 * their passkey use cases give, as the console catalogue's codes.
 */
export type PasskeySignInRefusal =
  | { reason: 'throttled'; retryAfterSeconds: number }
  | { reason: 'challenge-unusable' | 'not-verified' | 'no-pending-sign-in' | 'no-passkeys' };

export function passkeySignInRefusalError(refusal: PasskeySignInRefusal): ConsoleError {
  switch (refusal.reason) {
    case 'throttled':
      return new ConsoleError('CON_1002', undefined, { headers: { 'Retry-After': String(refusal.retryAfterSeconds) } });
    case 'challenge-unusable':
      return new ConsoleError('CON_1010');
    case 'not-verified':
      return new ConsoleError('CON_1009');
    case 'no-passkeys':
      return new ConsoleError('CON_1009', 'No passkey is registered for this account: enter the code from your authenticator app');
    case 'no-pending-sign-in':
      return new ConsoleError('CON_1004');
  }
}
