import { withTransaction, type Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import { warningsOfRule, type TierLimitChange, type TierLimitRule } from '../domain/tier-limits';
import type { TransactionType } from '../domain/transaction-type';
import type { Tier } from '../domain/user';
import { listLimitRules, lockLimitRule, upsertLimitRule } from '../store/limit-store';
import { OperatorRefusal } from './operator-refusal';

export function showLimits(pool: Pool, tier?: Tier): Promise<TierLimitRule[]> {
  return listLimitRules(pool, tier);
}

export interface LimitKey {
  tier: Tier;
  transactionType: TransactionType;
  currency: Currency;
}

const changeFields = [
  'perTransactionMaxMinor',
  'dailyMaxMinor',
  'weeklyMaxMinor',
  'monthlyMaxMinor',
  'yearlyMaxMinor',
  'perHourCountMax',
  'perDayCountMax',
] as const satisfies readonly (keyof TierLimitChange)[];

/**
 * Changes some limits of one tier, type and currency, effective for the next check (no redeploy).
 * A row that does not exist yet needs every field. Answers the rule with warnings about limits that
 * can never bind (a daily limit above the weekly one, say).
 */
export async function setLimit(pool: Pool, key: LimitKey, change: TierLimitChange): Promise<{ rule: TierLimitRule; warnings: string[] }> {
  return withTransaction(pool, async (client) => {
    const current = await lockLimitRule(client, key.tier, key.transactionType, key.currency);
    const given = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) as TierLimitChange;
    if (Object.keys(given).length === 0) throw new OperatorRefusal('Give at least one limit to change');
    if (!current) {
      const missing = changeFields.filter((field) => given[field] === undefined);
      if (missing.length > 0) {
        throw new OperatorRefusal(`${key.tier} has no ${key.transactionType} ${key.currency} limits yet; give every limit (missing ${missing.join(', ')})`);
      }
    }
    const updated = { ...key, ...current, ...given } as TierLimitRule;
    await upsertLimitRule(client, updated);
    return { rule: updated, warnings: warningsOfRule(updated) };
  });
}
