import { transactionBoundsMinor, type publicApi } from '@pwa/contracts';
import { currencies, toApiAmount, type Currency } from '@pwa/money';
import type { FeeSchedule } from '../domain/fee-schedule';
import type { QuoteType } from '../domain/quote-type';
import type { FeeScheduleCache } from '../store/fee-schedule-cache';

/** Both currencies have two decimals (libs/money: one major unit is 100 minor units). */
const amountDecimals = 2;

type PublicPartnerPricing = publicApi.PublicPartnerPricing;
type FeeScheduleView = NonNullable<PublicPartnerPricing['currencies'][number]['fees']['collection']>;

/** A schedule as the partner reads it: major units, the tiers in order, basis points as stored. */
export function feeScheduleView(schedule: FeeSchedule): FeeScheduleView {
  return {
    revision: schedule.revision,
    tiers: schedule.tiers.map((tier) => ({ upTo: tier.upToMinor === null ? null : toApiAmount(tier.upToMinor), flatFee: toApiAmount(tier.flatMinor), basisPoints: tier.basisPoints })),
    minimumFee: toApiAmount(schedule.minimumFeeMinor),
    maximumFee: toApiAmount(schedule.maximumFeeMinor),
  };
}

/**
 * GET /partner/v1/pricing: the schedules in force read from the database now (not the quote
 * cache, which may trail another replica's change by one quote), so what this answers is what the
 * next quote charges; the bounds are the API's own (libs/contracts); the rate limit is the one the
 * gateway admitted the request under.
 */
export async function partnerPricing(feeSchedules: FeeScheduleCache, rateLimitPerMinute: number | undefined): Promise<PublicPartnerPricing> {
  const scheduleOf = async (type: QuoteType, currency: Currency): Promise<FeeScheduleView | null> => {
    const schedule = await feeSchedules.refresh(type, currency);
    return schedule === undefined ? null : feeScheduleView(schedule);
  };
  const perCurrency = await Promise.all(
    currencies.map(async (currency) => ({
      currency,
      decimals: amountDecimals,
      minimumAmount: toApiAmount(transactionBoundsMinor[currency].minimumMinor),
      maximumAmount: toApiAmount(transactionBoundsMinor[currency].maximumMinor),
      fees: { collection: await scheduleOf('collection', currency), disbursement: await scheduleOf('disbursement', currency) },
    })),
  );
  return { currencies: perCurrency, rateLimit: { requestsPerMinute: rateLimitPerMinute ?? null } };
}
