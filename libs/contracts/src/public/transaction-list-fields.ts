import { z } from 'zod';
import { liberianPhoneForms, normaliseLiberianPhone } from '@pwa/phone';
import { currencyField } from './fields';
import { pageQueryFields } from './pagination';

/**
 * The query fields of the transaction lists (GET /partner/v1/collections, /disbursements,
 * /refunds): the same filters for each, with that type's statuses. A list with a filter of its own
 * (the refunds' collectionReferenceId) spreads these beside it and refines with createdRangeIsValid.
 */
export function transactionListFieldsOf<const Statuses extends readonly [string, ...string[]]>(statuses: Statuses, noun: string) {
  return {
    status: z.enum(statuses).optional().meta({ param: { description: `Only ${noun}s in this status (the status endpoint’s).` } }),
    currency: currencyField.optional().meta({ param: { description: `Only ${noun}s in this currency.` } }),
    externalId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ param: { description: `Only the ${noun} with your externalId (exact match): finds the one you created with it, or an empty page. Failed attempts that freed it are listed too, newest first.`, example: 'order-1001' } }),
    createdFrom: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ param: { description: 'Created at or after this time (inclusive; ISO 8601 with Z or an offset).', example: '2024-06-10T00:00:00Z' } }),
    createdTo: z.iso
      .datetime({ offset: true })
      .optional()
      .meta({ param: { description: 'Created before this time (exclusive; ISO 8601 with Z or an offset). Not before createdFrom.', example: '2024-06-11T00:00:00Z' } }),
    limit: pageQueryFields.limit,
    cursor: pageQueryFields.cursor,
  };
}

/** The checks across fields of a list query: no year 0000, createdFrom not after createdTo (400 PKC_2008 naming the field). */
export function createdRangeIsValid<Query extends { createdFrom?: string | undefined; createdTo?: string | undefined }>(query: Query, context: z.RefinementCtx<Query>): void {
  // Year 0000 is ISO 8601 but no date Postgres (or the Gregorian calendar) knows: refused like any bad date.
  for (const field of ['createdFrom', 'createdTo'] as const) {
    if (query[field]?.startsWith('0000-') === true) {
      context.addIssue({ code: 'custom', path: [field], message: `${field} is out of range`, params: { problem: 'out_of_range', expected: 'a date-time from the year 0001 on' } });
    }
  }
  if (query.createdFrom !== undefined && query.createdTo !== undefined && Date.parse(query.createdFrom) > Date.parse(query.createdTo)) {
    context.addIssue({ code: 'custom', path: ['createdTo'], message: 'createdTo is before createdFrom', params: { problem: 'out_of_range', expected: 'a time not before createdFrom' } });
  }
}

/**
 * The customer's phone as a list filter (the collections' payer, the disbursements' recipient), as
 * the partner may write it (0770123456, +231 77 012 3456); the list compares the +231 form.
 */
export function phoneFilterFieldOf(noun: string) {
  return z
    .string()
    .max(40)
    .transform((input, context) => {
      const phone = normaliseLiberianPhone(input);
      if (phone === undefined) {
        context.addIssue({ code: 'custom', message: 'phone must be a Liberian mobile number (0770123456 or +231770123456)', params: { problem: 'wrong_format', expected: liberianPhoneForms } });
        return z.NEVER;
      }
      return phone;
    })
    .optional()
    .meta({ param: { description: `Only the ${noun}s of this customer’s phone (0770123456 or +231770123456; spaces and hyphens ignored), newest first.`, example: '0770000001' } });
}

/**
 * The query of the collections and disbursements lists. Unknown parameters and invalid values are
 * 400 PKC_2008 naming them; createdFrom after createdTo is 400 PKC_2008 naming createdTo.
 */
export function transactionListQuerySchemaOf<const Statuses extends readonly [string, ...string[]]>(statuses: Statuses, noun: string) {
  return z
    .object({ ...transactionListFieldsOf(statuses, noun), phone: phoneFilterFieldOf(noun) })
    .strict()
    .superRefine(createdRangeIsValid);
}
