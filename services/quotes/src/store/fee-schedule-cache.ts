import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Currency } from '@pwa/money';
import type { QuoteType } from '../domain/quote-type';
import { findFeeSchedule, type StoredFeeSchedule } from './fee-schedule-store';

/**
 * The fee schedules last read, so a quote does not read its schedule on every call. It is never
 * trusted on its own: a quote is stored only if the revision it was priced with is still the one
 * in force (insertQuoteIfRevisionCurrent), and a quote priced with a replaced revision is priced
 * again from the database. So `set-fee` still applies to the next quote, by any replica.
 */
export interface FeeScheduleCache {
  /** The schedule last read for the type and currency, reading it on a miss; undefined when none exists. */
  current(type: QuoteType, currency: Currency): Promise<StoredFeeSchedule | undefined>;
  /** Reads the schedule from the database now (after a revision turned out stale). */
  refresh(type: QuoteType, currency: Currency): Promise<StoredFeeSchedule | undefined>;
}

export function createFeeScheduleCache(pool: Pool): FeeScheduleCache {
  const schedules = new Map<string, StoredFeeSchedule>();
  const keyOf = (type: QuoteType, currency: Currency): string => `${type}:${currency}`;
  const refresh = async (type: QuoteType, currency: Currency): Promise<StoredFeeSchedule | undefined> => {
    const schedule = await findFeeSchedule(pool, type, currency);
    if (schedule) schedules.set(keyOf(type, currency), schedule);
    else schedules.delete(keyOf(type, currency));
    return schedule;
  };
  return {
    current: async (type, currency) => schedules.get(keyOf(type, currency)) ?? refresh(type, currency),
    refresh,
  };
}

/** A schedule replaced twice while one quote (or bulk quote) is priced is an operator at work: the partner retries. */
const pricingAttemptsMax = 3;

/**
 * Prices with the schedule in force: `priceAndStore` is tried with the cached schedule and answers
 * undefined when the revision it priced with was replaced before it could store (the insert's own
 * check); it is then tried again with the schedule read afresh, at most three times in all. No
 * schedule, or one that keeps changing, is PKC_7002. Single quotes and bulk quotes both price so.
 */
export async function withScheduleInForce<T>(
  feeSchedules: FeeScheduleCache,
  type: QuoteType,
  currency: Currency,
  priceAndStore: (schedule: StoredFeeSchedule) => Promise<T | undefined>,
): Promise<T> {
  let schedule = await feeSchedules.current(type, currency);
  for (let attempt = 1; ; attempt += 1) {
    if (!schedule) throw new PkcError('PKC_7002', `No fee schedule for ${type} in ${currency}`);
    const stored = await priceAndStore(schedule);
    if (stored !== undefined) return stored;
    // The schedule was replaced after it was cached (or while this quote was being checked).
    if (attempt >= pricingAttemptsMax) throw new PkcError('PKC_7002', `The fee schedule for ${type} in ${currency} kept changing; retry`);
    schedule = await feeSchedules.refresh(type, currency);
  }
}
