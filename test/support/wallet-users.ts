import { randomInt, randomUUID } from 'node:crypto';
import type { Stack } from './stack';

/**
 * Fresh wallet users and money for e2e tests, made through the wallet's operator CLI, so every test
 * has its own user and never depends on another's rows. Amounts are in major units as an operator
 * types them ("150.00").
 */
export type Tier = 'Basic' | 'Silver' | 'Gold' | 'Platinum';

export interface WalletUserOptions {
  name?: string;
  tier?: Tier;
  kyc?: 'pending' | 'approved' | 'rejected';
  status?: 'active' | 'suspended' | 'closed';
  /** Currencies the user has a wallet in; defaults to both. */
  currencies?: ('LRD' | 'USD')[];
}

export interface WalletUser {
  /** The local form (0770123456), as partners often send it. */
  localPhone: string;
  /** The +231 form the API answers with. */
  phone: string;
  name: string;
}

// One random starting point per test process, then a counter: no two users of a run share a number.
let phoneSequence = randomInt(0, 9_000_000);

export function nextPhone(): WalletUser['localPhone'] {
  phoneSequence += 1;
  const prefix = ['77', '88', '55'][phoneSequence % 3] ?? '77';
  return `0${prefix}${String(phoneSequence % 10_000_000).padStart(7, '0')}`;
}

export async function createWalletUser(stack: Stack, options: WalletUserOptions = {}): Promise<WalletUser> {
  const localPhone = nextPhone();
  const name = options.name ?? `E2E User ${localPhone.slice(-4)}`;
  const args = ['create-user', '--phone', localPhone, '--name', name, '--tier', options.tier ?? 'Basic'];
  args.push('--kyc', options.kyc ?? 'approved', '--status', options.status ?? 'active');
  args.push('--currencies', options.currencies === undefined ? 'LRD,USD' : options.currencies.join(',') || 'none');
  await stack.walletOperator(args);
  return { localPhone, phone: `+231${localPhone.slice(1)}`, name };
}

export function updateWalletUser(stack: Stack, user: WalletUser, options: string[]): Promise<Record<string, unknown>> {
  return stack.walletOperator(['update-user', user.localPhone, ...options]);
}

/** A sandbox credit: money enters the user's wallet from the operator's funding account. */
export function creditWallet(stack: Stack, user: WalletUser, currency: 'LRD' | 'USD', amount: string): Promise<Record<string, unknown>> {
  return stack.walletOperator(['credit-wallet', user.localPhone, currency, amount]);
}

export function fundPartner(stack: Stack, partnerId: string, currency: 'LRD' | 'USD', amount: string): Promise<Record<string, unknown>> {
  return stack.walletOperator(['fund-partner', partnerId, currency, amount, '--reference', 'e2e funding']);
}

export interface LimitSettings {
  perTransaction?: string;
  daily?: string;
  weekly?: string;
  monthly?: string;
  yearly?: string;
  perHourCount?: number;
  perDayCount?: number;
}

export function setLimit(
  stack: Stack,
  rule: { tier: Tier; type: 'collection' | 'disbursement'; currency: 'LRD' | 'USD' },
  limits: LimitSettings,
): Promise<Record<string, unknown>> {
  const options: [string, string | number | undefined][] = [
    ['--per-transaction', limits.perTransaction],
    ['--daily', limits.daily],
    ['--weekly', limits.weekly],
    ['--monthly', limits.monthly],
    ['--yearly', limits.yearly],
    ['--per-hour-count', limits.perHourCount],
    ['--per-day-count', limits.perDayCount],
  ];
  const args = ['set-limit', '--tier', rule.tier, '--type', rule.type, '--currency', rule.currency];
  for (const [flag, value] of options) if (value !== undefined) args.push(flag, String(value));
  return stack.walletOperator(args);
}

/**
 * Posts a completed transaction for the user straight to the wallet's internal API, as the
 * collections and disbursements services will: it is how a test gives a user limit usage today.
 */
export async function postWalletTransfer(
  stack: Stack,
  transfer: { type: 'collection' | 'disbursement'; partnerId: string; user: WalletUser; currency: 'LRD' | 'USD'; amountMinor: bigint; feeMinor?: bigint },
): Promise<Record<string, unknown>> {
  const response = await fetch(`${stack.internalUrls.wallet}/internal/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      transferId: randomUUID(),
      type: transfer.type,
      partnerId: transfer.partnerId,
      phone: transfer.user.phone,
      currency: transfer.currency,
      amountMinor: transfer.amountMinor.toString(),
      feeMinor: (transfer.feeMinor ?? 0n).toString(),
      reference: 'e2e usage',
    }),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`wallet transfer failed: ${response.status} ${JSON.stringify(body)}`);
  return body;
}
