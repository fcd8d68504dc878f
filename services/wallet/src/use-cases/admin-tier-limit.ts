import type { AdminChangeAnswer, WalletTierLimitRequest } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { applyApprovedChangeOnce } from '@pwa/runtime';
import type { TierLimitChange, TierLimitRule } from '../domain/tier-limits';
import { lockLimitRule, upsertLimitRule } from '../store/limit-store';

const limitFields = ['perTransactionMaxMinor', 'dailyMaxMinor', 'weeklyMaxMinor', 'monthlyMaxMinor', 'yearlyMaxMinor', 'perHourCountMax', 'perDayCountMax'] as const;

/**
 * The back-office's approved change of a tier's limits (`tier_limit.set`, decision 0069), applied
 * once per approval request: under the request id's lock, an earlier record of it is answered as
 * it was (`replayed`, nothing changes; a different change under that id is 409 PKC_6001), else the
 * limits change and the record of who, which approval, before and after commits with them.
 * Refusals change nothing: 403 PKC_6005 without four eyes, 400 PKC_2008 for a tier without limits
 * yet that was not given all seven.
 */
export async function executeAdminTierLimit(pool: Pool, request: WalletTierLimitRequest): Promise<AdminChangeAnswer> {
  const target = `${request.tier}:${request.transactionType}:${request.currency}`;
  return applyApprovedChangeOnce(pool, request, {
    action: 'tier_limit.set',
    target,
    parameters: wireOf(request.limits),
    apply: async (client) => {
      const current = await lockLimitRule(client, request.tier, request.transactionType, request.currency);
      const given = Object.fromEntries(Object.entries(request.limits).filter(([, value]) => value !== undefined)) as TierLimitChange;
      if (!current) {
        const missing = limitFields.filter((field) => given[field] === undefined);
        if (missing.length > 0) throw new PkcError('PKC_2008', `${target} has no limits yet: give every limit (missing ${missing.join(', ')}); nothing was changed`);
      }
      const updated = { tier: request.tier, transactionType: request.transactionType, currency: request.currency, ...current, ...given } as TierLimitRule;
      await upsertLimitRule(client, updated);
      return { before: current ? wireOf(current) : null, after: wireOf(updated) };
    },
  });
}

/** The limits as JSON: amounts as strings of minor units, counts as numbers, in a fixed field order. */
function wireOf(limits: Partial<Record<(typeof limitFields)[number], bigint | number | undefined>>): Record<string, string | number> {
  const wire: Record<string, string | number> = {};
  for (const field of limitFields) {
    const value = limits[field];
    if (value !== undefined) wire[field] = typeof value === 'bigint' ? value.toString() : value;
  }
  return wire;
}
