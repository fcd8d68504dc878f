import type { Currency } from '@pwa/money';
import type { PkcCode } from '@pwa/errors';
import type { Tier } from './user';
import type { TransactionType } from './transaction-type';

/** One row of limit configuration: a tier's limits for one transaction type and currency. */
export interface TierLimitRule {
  tier: Tier;
  transactionType: TransactionType;
  currency: Currency;
  perTransactionMaxMinor: bigint;
  dailyMaxMinor: bigint;
  weeklyMaxMinor: bigint;
  monthlyMaxMinor: bigint;
  yearlyMaxMinor: bigint;
  perHourCountMax: number;
  perDayCountMax: number;
}

/** What the user has already used in each window (postings of the same type and currency, all partners). */
export interface LimitUsage {
  hourCount: number;
  dayCount: number;
  dayAmountMinor: bigint;
  weekAmountMinor: bigint;
  monthAmountMinor: bigint;
  yearAmountMinor: bigint;
}

export const noUsage: LimitUsage = {
  hourCount: 0,
  dayCount: 0,
  dayAmountMinor: 0n,
  weekAmountMinor: 0n,
  monthAmountMinor: 0n,
  yearAmountMinor: 0n,
};

/** The tier's rule for this type and currency, or the code that says why there is none. */
export type LimitLookup = { found: true; rule: TierLimitRule } | { found: false; refusal: 'PKC_4011' | 'PKC_4012' };

export function findLimitRule(
  rulesOfTier: readonly TierLimitRule[],
  transactionType: TransactionType,
  currency: Currency,
): LimitLookup {
  if (rulesOfTier.length === 0) return { found: false, refusal: 'PKC_4011' };
  const rule = rulesOfTier.find((candidate) => candidate.transactionType === transactionType && candidate.currency === currency);
  return rule ? { found: true, rule } : { found: false, refusal: 'PKC_4012' };
}

/** findLimitRule's answer when the store has looked up the one rule and whether the tier has any. */
export function limitLookupOf(rule: TierLimitRule | undefined, tierHasRules: boolean): LimitLookup {
  if (rule) return { found: true, rule };
  return { found: false, refusal: tierHasRules ? 'PKC_4012' : 'PKC_4011' };
}

/**
 * The first limit this transaction would break, in the documented order: per transaction, daily,
 * weekly, monthly, yearly amount, then the count per day and per hour. The amount compared is the
 * transaction amount without the fee. A limit is reached when usage plus this transaction would
 * exceed it; landing exactly on it is allowed.
 */
export function firstBrokenLimit(rule: TierLimitRule, usage: LimitUsage, amountMinor: bigint): PkcCode | undefined {
  if (amountMinor > rule.perTransactionMaxMinor) return 'PKC_4003';
  if (usage.dayAmountMinor + amountMinor > rule.dailyMaxMinor) return 'PKC_4004';
  if (usage.weekAmountMinor + amountMinor > rule.weeklyMaxMinor) return 'PKC_4007';
  if (usage.monthAmountMinor + amountMinor > rule.monthlyMaxMinor) return 'PKC_4005';
  if (usage.yearAmountMinor + amountMinor > rule.yearlyMaxMinor) return 'PKC_4008';
  if (usage.dayCount + 1 > rule.perDayCountMax) return 'PKC_4009';
  if (usage.hourCount + 1 > rule.perHourCountMax) return 'PKC_4010';
  return undefined;
}

/** Limit fields the operator may change; the rest of the rule stays as it is. */
export type TierLimitChange = Partial<
  Pick<
    TierLimitRule,
    'perTransactionMaxMinor' | 'dailyMaxMinor' | 'weeklyMaxMinor' | 'monthlyMaxMinor' | 'yearlyMaxMinor' | 'perHourCountMax' | 'perDayCountMax'
  >
>;

/**
 * Settings that are allowed but probably not meant, in words for the operator: a shorter window
 * with a larger limit than a longer one never binds, because the longer window refuses first.
 */
export function warningsOfRule(rule: TierLimitRule): string[] {
  const nested: [string, bigint | number, string, bigint | number][] = [
    ['per-transaction', rule.perTransactionMaxMinor, 'daily', rule.dailyMaxMinor],
    ['daily', rule.dailyMaxMinor, 'weekly', rule.weeklyMaxMinor],
    ['weekly', rule.weeklyMaxMinor, 'monthly', rule.monthlyMaxMinor],
    ['monthly', rule.monthlyMaxMinor, 'yearly', rule.yearlyMaxMinor],
    ['per-hour count', rule.perHourCountMax, 'per-day count', rule.perDayCountMax],
  ];
  return nested
    .filter(([, shorter, , longer]) => shorter > longer)
    .map(([shorterName, , longerName]) => `the ${shorterName} limit exceeds the ${longerName} limit, so it never applies`);
}
