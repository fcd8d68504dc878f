import type { Currency } from '@pwa/money';

export const accountStatuses = ['active', 'suspended', 'closed'] as const;
export type AccountStatus = (typeof accountStatuses)[number];

/** Identity verification; only approved lets money move. */
export const kycStatuses = ['pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof kycStatuses)[number];

export const tiers = ['Basic', 'Silver', 'Gold', 'Platinum'] as const;
export type Tier = (typeof tiers)[number];

export const walletStatuses = ['active', 'frozen'] as const;
export type WalletStatus = (typeof walletStatuses)[number];

export interface Wallet {
  currency: Currency;
  status: WalletStatus;
  balanceMinor: bigint;
}

export interface User {
  userId: string;
  phone: string;
  name: string;
  accountStatus: AccountStatus;
  kycStatus: KycStatus;
  tier: Tier;
  /** Sorted by currency (LRD before USD). */
  wallets: Wallet[];
}

export function isAccountStatus(value: string): value is AccountStatus {
  return (accountStatuses as readonly string[]).includes(value);
}

export function isKycStatus(value: string): value is KycStatus {
  return (kycStatuses as readonly string[]).includes(value);
}

export function isTier(value: string): value is Tier {
  return (tiers as readonly string[]).includes(value);
}

export const userNameLengthMax = 200;

/** Trims a person's name and refuses an empty or overlong one; the message is shown to the operator. */
export function parseUserName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > userNameLengthMax) throw new Error(`User name must be 1 to ${userNameLengthMax} characters`);
  return name;
}

/**
 * The currencies a partner may transact in with this user, as the account lookup lists them.
 * Decision: only active wallets are listed. The spec tells partners to proceed only when the
 * currency is in `currencies`, and a frozen wallet refuses every transaction (PKC_3004), so listing
 * it would invite a quote that must fail.
 */
export function transactableCurrencies(user: Pick<User, 'wallets'>): Currency[] {
  return user.wallets.filter((wallet) => wallet.status === 'active').map((wallet) => wallet.currency);
}
