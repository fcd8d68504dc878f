import { z } from 'zod';
import { currencyField, feeField, nonNegativeAmountField } from './fields';

/**
 * GET /partner/v1/pricing: what a partner pays and may send, read before the first quote (an
 * addition to the spec, in the spirit of pawaPay's active configuration): the fee schedule in force
 * per type and currency — the very rule the next quote is priced with — the per-transaction bounds,
 * the decimals and the partner's rate limit.
 */
const feeTierSchema = z
  .strictObject({
    upTo: nonNegativeAmountField.nullable().meta({ description: 'The tier’s inclusive upper bound in major units; null for the last tier, which has none.', example: 100 }),
    flatFee: feeField.meta({ description: 'The fixed part of the fee for an amount in this tier, in major units.', example: 0.25 }),
    basisPoints: z.number().int().min(0).max(10_000).meta({ description: 'The percentage part, in basis points of the whole amount (100 is 1 %).', example: 75 }),
  })
  .meta({ id: 'FeeTier', description: 'One band of a fee schedule: an amount falls in the first tier whose upTo it does not exceed.' });

const feeScheduleSchema = z
  .strictObject({
    revision: z.number().int().positive().meta({ description: 'Goes up by one at every change; a quote records the revision it was priced with.', example: 1 }),
    tiers: z.array(feeTierSchema).min(1),
    minimumFee: feeField.meta({ description: 'No fee is lower.', example: 0.1 }),
    maximumFee: feeField.meta({ description: 'No fee is higher.', example: 20 }),
  })
  .meta({
    id: 'FeeSchedule',
    description:
      'The fee of an amount: find its tier (the first whose upTo it does not exceed), take flatFee plus basisPoints / 10000 of the whole amount, rounded half up to the cent, then hold it between minimumFee and maximumFee. Exactly what a quote charges.',
  });

const currencyPricingSchema = z
  .strictObject({
    currency: currencyField,
    decimals: z.number().int().min(0).meta({ description: 'Decimal places an amount may have (more: 400 PKC_2002).', example: 2 }),
    minimumAmount: nonNegativeAmountField.meta({ description: 'The smallest amount of one collection or disbursement (below: 400 PKC_2003).', example: 1 }),
    maximumAmount: nonNegativeAmountField.meta({ description: 'The largest amount of one collection or disbursement (above: 400 PKC_2004).', example: 10000 }),
    fees: z.strictObject({
      collection: feeScheduleSchema.nullable().meta({ description: 'What a collection costs you (taken from the amount credited to you); null when the operator has set none yet (quotes are then refused).' }),
      disbursement: feeScheduleSchema.nullable().meta({ description: 'What a disbursement costs you (debited with the amount); null when the operator has set none yet.' }),
    }),
  })
  .meta({ id: 'CurrencyPricing' });

export const partnerPricingSchema = z
  .strictObject({
    currencies: z.array(currencyPricingSchema).meta({ description: 'One entry per currency of the API, LRD then USD.' }),
    rateLimit: z.strictObject({
      requestsPerMinute: z.number().int().positive().nullable().meta({ description: 'Your requests per minute over the whole API, as the X-RateLimit-Limit header says; null when the answer did not come through the gateway.', example: 600 }),
    }),
  })
  .meta({ id: 'PartnerPricing', description: 'Your prices and limits now: the fee schedules the next quotes use, the per-transaction bounds, the decimals and your rate limit.' });
export type PublicPartnerPricing = z.infer<typeof partnerPricingSchema>;

const usdCollection = { revision: 1, tiers: [{ upTo: 100, flatFee: 0, basisPoints: 100 }, { upTo: 1000, flatFee: 0.25, basisPoints: 75 }, { upTo: null, flatFee: 2.75, basisPoints: 50 }], minimumFee: 0.1, maximumFee: 20 };
const usdDisbursement = { revision: 1, tiers: [{ upTo: 100, flatFee: 0.25, basisPoints: 100 }, { upTo: 1000, flatFee: 0.5, basisPoints: 75 }, { upTo: null, flatFee: 3, basisPoints: 50 }], minimumFee: 0.25, maximumFee: 25 };
const lrdCollection = { revision: 1, tiers: [{ upTo: 20000, flatFee: 0, basisPoints: 100 }, { upTo: 200000, flatFee: 50, basisPoints: 75 }, { upTo: null, flatFee: 550, basisPoints: 50 }], minimumFee: 20, maximumFee: 4000 };
const lrdDisbursement = { revision: 1, tiers: [{ upTo: 20000, flatFee: 50, basisPoints: 100 }, { upTo: 200000, flatFee: 100, basisPoints: 75 }, { upTo: null, flatFee: 600, basisPoints: 50 }], minimumFee: 50, maximumFee: 5000 };

export const partnerPricingExample: PublicPartnerPricing = {
  currencies: [
    { currency: 'LRD', decimals: 2, minimumAmount: 50, maximumAmount: 1850000, fees: { collection: lrdCollection, disbursement: lrdDisbursement } },
    { currency: 'USD', decimals: 2, minimumAmount: 1, maximumAmount: 10000, fees: { collection: usdCollection, disbursement: usdDisbursement } },
  ],
  rateLimit: { requestsPerMinute: 600 },
};
