import type { BatchRecipientFacts } from '../../src/domain/batch-decisions';
import { noUsage, type TierLimitRule } from '../../src/domain/tier-limits';

/** The Gold USD disbursement rule the batch decision tests decide against. */
export const rule: TierLimitRule = {
  tier: 'Gold',
  transactionType: 'disbursement',
  currency: 'USD',
  perTransactionMaxMinor: 50_000n,
  dailyMaxMinor: 80_000n,
  weeklyMaxMinor: 300_000n,
  monthlyMaxMinor: 400_000n,
  yearlyMaxMinor: 500_000n,
  perHourCountMax: 3,
  perDayCountMax: 5,
};

/** An active, approved recipient with an empty active wallet under that rule and no usage. */
export function recipient(userId: string, overrides: Partial<BatchRecipientFacts> = {}): BatchRecipientFacts {
  return {
    userId,
    accountStatus: 'active',
    kycStatus: 'approved',
    wallet: { status: 'active', accountId: `account-${userId}`, balanceMinor: 0n },
    limits: { found: true, rule },
    usage: noUsage,
    ...overrides,
  };
}

export const phoneA = '+231770000001';
export const phoneB = '+231770000002';
