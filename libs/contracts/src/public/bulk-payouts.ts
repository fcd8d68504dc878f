import { z } from 'zod';
import { bulkItemsMax } from '../internal/quotes';
import { bulkReferenceIdPattern, bulkStatuses } from '../bulk-events';
import { externalIdLengthMax, noteLengthMax } from '../confirm-request';
import { expectedInputs } from '../input-refusals';
import { disbursementStatusSchema } from './disbursements';
import { invalidFieldsSchema } from './envelopes';
import { amountField, currencyField, externalIdField, failureReasonSchema, feeField, instantField, nonNegativeAmountField, phoneField, phoneInputField, uuidField } from './fields';
import { pageQueryFields, pageSchemaOf } from './pagination';
import { createdRangeIsValid, transactionListFieldsOf } from './transaction-list-fields';

/**
 * Bulk payouts (issue 20, decision 0055): POST /partner/v1/disbursement/bulk/quote checks and
 * prices up to 1,000 payouts in one call; POST /partner/v1/disbursement/bulk/transfer accepts the
 * valid ones (202) and they are paid in batches, each its own disbursement (own referenceId,
 * status, webhook, place in lists and statements); GET /partner/v1/disbursement/bulk/{bulkId}
 * follows the bulk and pages its items.
 */

export { bulkItemsMax };

export const bulkReferenceIdField = z.string().regex(bulkReferenceIdPattern).meta({
  id: 'BulkId',
  description: "A bulk payout's id: PKB-<digits>-<uppercase hex>. Treat it as an opaque string.",
  example: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D',
});

// ---- POST /partner/v1/disbursement/bulk/quote --------------------------------------------------

export const bulkQuoteRequestItemSchema = z
  .object({
    phone: phoneInputField,
    amount: amountField,
    externalId: externalIdField.meta({ description: `Your unique reference for this payout, 1 to ${externalIdLengthMax} characters: unique within the bulk and not held by another pending or completed disbursement of yours (else the item is invalid with PKC_6001).`, example: 'payroll-2026-11-0001' }),
    note: z.string().max(noteLengthMax).nullable().optional().meta({ description: `Shown to the user; at most ${noteLengthMax} characters.`, example: 'November salary' }),
  })
  .strict()
  .meta({ id: 'BulkQuoteRequestItem', description: 'One payout of a bulk, checked as a single disbursement quote and transfer would check it.' });

export const bulkQuoteRequestSchema = z
  .object({
    currency: currencyField,
    items: z.array(bulkQuoteRequestItemSchema).min(1).max(bulkItemsMax),
  })
  .strict()
  .meta({
    id: 'BulkQuoteRequest',
    description: `1 to ${bulkItemsMax} payouts in one currency. The whole call is refused (and nothing is stored) when the body is not an object, currency or items are missing, a field other than these two is sent, items is not a list of 1 to ${bulkItemsMax} (400 PKC_2008, naming the fields in invalidFields), the currency is not LRD or USD (400 PKC_2005) or not enabled (400 PKC_2010), no item is valid (400 PKC_5005, with every item's result), or your balance does not cover the valid items' total debit (400 PKC_4002). Otherwise each item is checked on its own, in this order: fields missing, of the wrong type or unknown (PKC_2008), phone (PKC_2001), amount (PKC_2002, PKC_2003, PKC_2004), externalId length (PKC_2006), note length (PKC_2007), externalId repeated in the bulk or held by a pending or completed disbursement of yours (PKC_6001), then the user's account, wallet, KYC and limits (PKC_3001–3005, PKC_4003–4012; several payouts to one user count together).`,
    example: {
      currency: 'USD',
      items: [
        { phone: '0770000001', amount: 25.5, externalId: 'payroll-2026-11-0001', note: 'November salary' },
        { phone: '0770009999', amount: 10, externalId: 'payroll-2026-11-0002' },
        { phone: '0770000011', amount: 40, externalId: 'payroll-2026-11-0003' },
      ],
    },
  });
export type PublicBulkQuoteRequest = z.infer<typeof bulkQuoteRequestSchema>;

/** An item's failureReason: the code and message, and for a refusal of the item's own fields, those fields named under the item. */
export const bulkQuoteItemFailureReasonSchema = failureReasonSchema
  .extend({
    invalidFields: invalidFieldsSchema.optional().meta({
      description: 'Only when the item was refused for its own fields (PKC_2001 to PKC_2008): each field named under the item, dotted (items.3.phone, items.0.memo for a field no item takes; items.2 when the item is not an object), with its problem and what is expected, as a validation refusal’s invalidFields. The message names the same fields.',
      example: [{ field: 'items.1.phone', problem: 'wrong_format', expected: expectedInputs.phone }],
    }),
  })
  .meta({
    id: 'BulkQuoteItemFailureReason',
    description: 'Why an item of a bulk quote is invalid: `code`, a PKC code of the catalogue, and `message`, for people (at most 300 characters; the wording may change); `invalidFields` when its own fields were refused.',
    example: { code: 'PKC_3001', message: 'No account for this phone number' },
  });

const indexField = z.number().int().min(0).max(bulkItemsMax - 1).meta({ description: 'The item’s place in your list, from 0.', example: 0 });

export const bulkQuoteItemSchema = z
  .strictObject({
    index: indexField,
    externalId: z.string().nullable().meta({ description: 'Your externalId for the item as you sent it, or null when it was missing or not a string.', example: 'payroll-2026-11-0001' }),
    status: z.enum(['valid', 'invalid']).meta({ description: 'valid: it will be paid when you transfer the bulk (checks run again then); invalid: it is left out, see failureReason.', example: 'valid' }),
    phone: phoneField.optional().meta({ description: 'Only when valid: the recipient’s phone, in its +231 form.' }),
    recipientName: z.string().optional().meta({ description: 'Only when valid: the wallet holder’s name, to check before paying.', example: 'Comfort Gold' }),
    amount: amountField.optional().meta({ description: 'Only when valid.' }),
    fee: feeField.optional().meta({ description: 'Only when valid: the fee of this payout.' }),
    totalDebit: amountField.optional().meta({ description: 'Only when valid: amount + fee.' }),
    failureReason: bulkQuoteItemFailureReasonSchema.optional().meta({ description: 'Only when invalid: the first rule the item breaks.' }),
  })
  .meta({ id: 'BulkQuoteItem', description: 'One item of a bulk quote: valid with its fee, or invalid with why.' });
export type PublicBulkQuoteItem = z.infer<typeof bulkQuoteItemSchema>;

export const bulkQuoteSchema = z
  .strictObject({
    bulkQuoteId: uuidField.meta({ description: 'Pass it to POST /disbursement/bulk/transfer within 10 minutes; usable once, by you, for a bulk transfer only.' }),
    currency: currencyField,
    expiresAt: instantField,
    itemCount: z.number().int().min(1).meta({ description: 'How many items you sent.', example: 2 }),
    validCount: z.number().int().min(1).meta({ description: 'How many will be paid.', example: 2 }),
    invalidCount: z.number().int().min(0).meta({ example: 0 }),
    totalAmount: amountField.meta({ description: 'The valid items’ amounts added up.' }),
    totalFee: feeField.meta({ description: 'The valid items’ fees added up.' }),
    totalDebit: amountField.meta({ description: 'totalAmount + totalFee: what your balance must cover (it did when this answer was made).' }),
    partnerBalance: nonNegativeAmountField.meta({ description: 'Your balance in the currency when the bulk was quoted.' }),
    items: z.array(bulkQuoteItemSchema).meta({ description: 'One result per item, in your order.' }),
  })
  .meta({ id: 'BulkQuote', description: 'A priced, checked bulk. Only the valid items are paid when it is transferred.' });
export type PublicBulkQuote = z.infer<typeof bulkQuoteSchema>;

/** The 400 PKC_5005 of a bulk none of whose items is valid carries every item's result. */
export const bulkQuoteRefusalItemsSchema = z.array(bulkQuoteItemSchema);

// ---- POST /partner/v1/disbursement/bulk/transfer -----------------------------------------------

export const bulkTransferRequestSchema = z
  .object({
    bulkQuoteId: uuidField.meta({ description: 'From POST /disbursement/bulk/quote (not a UUID: 400 PKC_2009).' }),
    externalId: externalIdField.meta({ description: 'Your unique reference for the whole bulk. Sending the same bulkQuoteId and externalId again answers the same bulk; another bulk of yours holding the externalId is 409 PKC_6001.', example: 'payroll-2026-11' }),
  })
  .strict()
  .meta({ id: 'BulkTransferRequest', description: 'Pays the valid items of a bulk quote. Errors: 400 PKC_2008 (missing, wrong or unknown fields), PKC_2009, PKC_2006 (body); PKC_5001 (unknown or expired bulk quote), PKC_5004 (another partner’s), PKC_5002 (already used); 409 PKC_6001 (externalId held by another bulk).', example: { bulkQuoteId: '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f', externalId: 'payroll-2026-11' } });
export type PublicBulkTransferRequest = z.infer<typeof bulkTransferRequestSchema>;

const countsSchema = z
  .strictObject({
    total: z.number().int().min(0).meta({ example: 2 }),
    pending: z.number().int().min(0).meta({ description: 'Accepted, not paid yet.', example: 0 }),
    completed: z.number().int().min(0).meta({ example: 2 }),
    failed: z.number().int().min(0).meta({ description: 'Refused when posted (balance ran out, limits, account changed) or when accepted (externalId taken meanwhile: PKC_6001); see each item’s failureReason.', example: 0 }),
  })
  .meta({ id: 'BulkCounts' });

export const bulkSummarySchema = z
  .strictObject({
    bulkId: bulkReferenceIdField,
    externalId: externalIdField,
    status: z.enum(bulkStatuses).meta({ description: 'processing until every item is final; then completed (every item paid) or completed_with_failures (at least one failed).', example: 'processing' }),
    currency: currencyField,
    counts: countsSchema,
    totalAmount: amountField.meta({ description: 'The accepted items’ amounts added up.' }),
    totalFee: feeField,
    totalDebit: amountField.meta({ description: 'totalAmount + totalFee.' }),
    completedAmount: nonNegativeAmountField.meta({ description: 'What reached users so far.', example: 65.5 }),
    completedFee: nonNegativeAmountField.meta({ description: 'The fees of the items paid so far.', example: 0.51 }),
    createdAt: instantField,
    completedAt: instantField.nullable().meta({ description: 'When the last item became final; null while processing.' }),
  })
  .meta({ id: 'BulkSummary', description: 'A bulk payout’s progress and money.' });
export type PublicBulkSummary = z.infer<typeof bulkSummarySchema>;

// ---- GET /partner/v1/disbursement/bulk/{bulkId} ------------------------------------------------

export const bulkIdParamsSchema = z.object({
  bulkId: z.string().meta({ param: { description: 'The bulkId the bulk transfer returned (PKB-…).', example: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D' } }),
});

export const bulkQuerySchema = z.strictObject({ ...pageQueryFields });
export type BulkQuery = z.output<typeof bulkQuerySchema>;

export const bulkItemSchema = disbursementStatusSchema
  .extend({ index: indexField })
  .meta({ id: 'BulkItem', description: 'One payout of the bulk: its place in your list and the disbursement it became (also at GET /disbursement/{referenceId}).' });
export type PublicBulkItem = z.infer<typeof bulkItemSchema>;

export const bulkItemPageSchema = pageSchemaOf(bulkItemSchema, 'BulkItemPage', 'A page of the bulk’s items, in your order.');

export const bulkSchema = bulkSummarySchema
  .extend({
    items: bulkItemPageSchema.meta({
      description:
        'Deprecated, kept for one version: one page of the items, nested (data.items.items). Read the items from GET /partner/v1/disbursement/bulk/{bulkId}/items, which answers the one shape of every list (decision 0077).',
      deprecated: true,
    }),
  })
  .meta({ id: 'Bulk', description: 'A bulk payout as it is now: status, counts and totals; its items are the list at /disbursement/bulk/{bulkId}/items.' });
export type PublicBulk = z.infer<typeof bulkSchema>;

// ---- GET /partner/v1/disbursement/bulks --------------------------------------------------------

const bulkListFields = transactionListFieldsOf(bulkStatuses, 'bulk payout');

/**
 * The query of the partner's list of bulk payouts: status, createdFrom and createdTo as the other
 * lists take them, limit and cursor. Unknown parameters and invalid values are 400 PKC_2008 naming
 * them; createdFrom after createdTo is 400 PKC_2008 naming createdTo.
 */
export const bulkListQuerySchema = z
  .object({
    status: bulkListFields.status.meta({ param: { description: 'Only bulk payouts in this status: processing, completed or completed_with_failures.' } }),
    createdFrom: bulkListFields.createdFrom,
    createdTo: bulkListFields.createdTo,
    limit: bulkListFields.limit,
    cursor: bulkListFields.cursor,
  })
  .strict()
  .superRefine(createdRangeIsValid);
export type BulkListQuery = z.output<typeof bulkListQuerySchema>;

export const bulkSummaryPageSchema = pageSchemaOf(bulkSummarySchema, 'BulkSummaryPage', 'A page of your bulk payouts, newest first, each as its summary (its items are at /disbursement/bulk/{bulkId}/items).');
export type PublicBulkSummaryPage = z.infer<typeof bulkSummaryPageSchema>;
