/**
 * Sandbox test phones whose collections resolve on their own after SANDBOX_AUTO_RESOLVE_DELAY_MS,
 * as if the user acted in the app. The wallet's sandbox seed (services/wallet/src/domain/
 * sandbox-users.ts) creates these users with ample balances; the README lists them for partners.
 * Never active in production.
 */
export type AutoResolution = 'approve' | 'decline' | 'expire' | 'fail';

export const sandboxAutoResolvingPhones: Readonly<Record<string, AutoResolution>> = {
  '+231770000011': 'approve',
  '+231770000012': 'decline',
  '+231770000013': 'expire',
  '+231770000014': 'fail',
};

export function autoResolutionOf(phone: string): AutoResolution | undefined {
  return Object.prototype.hasOwnProperty.call(sandboxAutoResolvingPhones, phone) ? sandboxAutoResolvingPhones[phone] : undefined;
}
