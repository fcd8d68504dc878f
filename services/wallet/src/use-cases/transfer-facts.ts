import type { Currency } from '@pwa/money';
import { limitWindowsAt } from '../domain/limit-windows';
import { findLimitRule, noUsage, type LimitLookup, type LimitUsage } from '../domain/tier-limits';
import type { TransactionType } from '../domain/transaction-type';
import type { Tier } from '../domain/user';
import { listLimitRules, usageWithin } from '../store/limit-store';
import type { Queryable } from '../store/queryable';

/** The limit half of a transfer's facts: the tier's rule for this type and currency, and the usage it is measured against. */
export async function loadLimitFacts(
  db: Queryable,
  user: { userId: string; tier: Tier },
  intent: { type: TransactionType; currency: Currency },
  now: Date,
): Promise<{ limits: LimitLookup; usage: LimitUsage }> {
  const limits = findLimitRule(await listLimitRules(db, user.tier), intent.type, intent.currency);
  if (!limits.found) return { limits, usage: noUsage };
  const usage = await usageWithin(db, user.userId, intent.type, intent.currency, limitWindowsAt(now), now);
  return { limits, usage };
}
