import { anyRoute, bearerAdmission, codes, example, operationFamily, partnerAccess } from './operation-parts';
import { partnerPricingExample, partnerPricingSchema } from './pricing';

/** The partner's prices and limits (GET /partner/v1/pricing, an addition to the spec, issue 29). */
export const pricingOperations = operationFamily([
  {
    operationId: 'getPricing',
    method: 'GET',
    pathTemplate: '/partner/v1/pricing',
    tag: 'Quotes',
    summary: 'Get your fees and limits',
    description:
      'The fee schedule in force for each type (collection, disbursement) and currency — the rule the next quote is priced with, so a quote’s fee is what you compute from it — with the per-transaction minimum and maximum, the decimals an amount may have, and your rate limit. A changed schedule applies to the next quote; a quote keeps the fee it was given.',
    ...partnerAccess(null),
    success: { status: 200, description: 'Your prices and limits.', schema: partnerPricingSchema, enveloped: true, examples: { sandbox: example('The sandbox’s default schedules', partnerPricingExample) } },
    errorCodes: codes(anyRoute, bearerAdmission),
  },
]);
