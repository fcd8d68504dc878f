import { z } from 'zod';
import { adminActorSchema, adminApprovalSchema } from './wallet-admin';
import { currencyField, uuidField } from './wire-fields';

/**
 * The quotes service's internal admin API: a fee schedule changed by people on the back-office
 * with four eyes (decision 0069). Owned by quotes (it parses with these schemas and refuses a
 * change without the acting person and the approval); the back-office builds its bodies and reads
 * its answers (adminChangeAnswerSchema of wallet-admin). Internal network only.
 */
export const quotesAdminPaths = {
  feeSchedules: '/internal/admin/fee-schedules',
} as const;

const wholeMinorText = z.string().regex(/^(0|[1-9]\d{0,15})$/, 'a whole number of minor units, as a string');

/**
 * POST /internal/admin/fee-schedules: what is given replaces the schedule's tiers, minimum or
 * maximum; what is left out stays. The request id is the idempotency key: sent again, the first
 * outcome is answered `replayed` and no new revision is written. A schedule the rules refuse
 * (tiers out of order, a minimum above the maximum) is 400 PKC_2008.
 */
export const quotesFeeScheduleRequestSchema = z.strictObject({
  requestId: uuidField,
  type: z.enum(['collection', 'disbursement']),
  currency: currencyField,
  tiers: z
    .array(z.strictObject({ upToMinor: wholeMinorText.nullable(), flatMinor: wholeMinorText, basisPoints: z.number().int().min(0).max(10_000) }))
    .min(1)
    .max(20)
    .optional(),
  minimumFeeMinor: wholeMinorText.optional(),
  maximumFeeMinor: wholeMinorText.optional(),
  reason: z.string().trim().min(1).max(500),
  actor: adminActorSchema,
  approval: adminApprovalSchema,
});
export type QuotesFeeScheduleRequest = z.output<typeof quotesFeeScheduleRequestSchema>;
