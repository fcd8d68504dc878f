import type { Pool } from '@pwa/db';
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
