import { invalidFieldError, invalidFieldsOfError } from '@pwa/errors';
import { expectedInputs } from '../input-refusals';
import {
  bulkIdParamsSchema,
  bulkItemPageSchema,
  bulkItemsMax,
  bulkListQuerySchema,
  bulkQuerySchema,
  bulkQuoteRefusalItemsSchema,
  bulkQuoteRequestSchema,
  bulkQuoteSchema,
  bulkReferenceIdField,
  bulkSchema,
  bulkSummaryPageSchema,
  bulkSummarySchema,
  bulkTransferRequestSchema,
  type PublicBulk,
  type PublicBulkQuote,
  type PublicBulkQuoteItem,
  type PublicBulkSummary,
  type PublicBulkSummaryPage,
} from './bulk-payouts';
import { disbursementStatusExample, failedDisbursementStatusExample } from './disbursements';
import { errorExample, type ErrorExtraFields } from './envelopes';
import { anyRoute, codes, example, json, operationFamily, ownTransactionRead, partnerAccess, permissionAdmission } from './operation-parts';
import { pageLimitDefault, pageLimitMax } from './pagination';

/**
 * Issue 20: bulk payouts (decision 0055). Up to 1,000 payouts are quoted in one call, accepted in
 * another (202) and paid in batches; each becomes a disbursement of its own. Gathered into
 * `publicOperations`.
 */

const bulkId = 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D';

const validItem: PublicBulkQuoteItem = {
  index: 0,
  externalId: 'payroll-2026-11-0001',
  status: 'valid',
  phone: '+231770000001',
  recipientName: 'Comfort Gold',
  amount: 25.5,
  // The sandbox's default USD disbursement schedule: 0.25 + 1 % of 25.50 (0.255, so 0.26).
  fee: 0.51,
  totalDebit: 26.01,
};

const invalidItem: PublicBulkQuoteItem = {
  index: 1,
  externalId: 'payroll-2026-11-0002',
  status: 'invalid',
  failureReason: { code: 'PKC_3001', message: 'No account for this phone number' },
};

/** An item refused for its own field: the phone, named under the item as a refusal names it. */
const phoneRefusal = invalidFieldError('PKC_2001', 'items.1.phone', 'wrong_format', expectedInputs.phone);
const invalidPhoneItem: PublicBulkQuoteItem = {
  index: 1,
  externalId: 'payroll-2026-11-0002',
  status: 'invalid',
  failureReason: { code: 'PKC_2001', message: phoneRefusal.message, invalidFields: invalidFieldsOfError(phoneRefusal) ?? [] },
};

export const bulkQuoteExample: PublicBulkQuote = {
  bulkQuoteId: '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f',
  currency: 'USD',
  expiresAt: '2024-06-10T06:23:20.000Z',
  itemCount: 3,
  validCount: 2,
  invalidCount: 1,
  totalAmount: 65.5,
  totalFee: 1.16,
  totalDebit: 66.66,
  partnerBalance: 12500,
  items: [validItem, invalidItem, { ...validItem, index: 2, externalId: 'payroll-2026-11-0003', phone: '+231770000011', recipientName: 'Aaron Approves', amount: 40, fee: 0.65, totalDebit: 40.65 }],
};

export const bulkSummaryExample: PublicBulkSummary = {
  bulkId,
  externalId: 'payroll-2026-11',
  status: 'processing',
  currency: 'USD',
  counts: { total: 2, pending: 2, completed: 0, failed: 0 },
  totalAmount: 65.5,
  totalFee: 1.16,
  totalDebit: 66.66,
  completedAmount: 0,
  completedFee: 0,
  createdAt: '2024-06-10T06:14:02.000Z',
  completedAt: null,
};

export const bulkExample: PublicBulk = {
  ...bulkSummaryExample,
  status: 'completed_with_failures',
  counts: { total: 2, pending: 0, completed: 1, failed: 1 },
  completedAmount: 25.5,
  completedFee: 0.51,
  completedAt: '2024-06-10T06:14:04.518Z',
  items: {
    items: [
      { ...disbursementStatusExample, referenceId: 'PKD-1718000042000-1A2B3C4D5E6F708192A3B4C5', externalId: 'payroll-2026-11-0001', amount: 25.5, currency: 'USD', fee: 0.51, totalDebit: 26.01, netAmount: 25.5, createdAt: '2024-06-10T06:14:02.000Z', completedAt: '2024-06-10T06:14:03.210Z', bulkId, index: 0 },
      { ...failedDisbursementStatusExample, referenceId: 'PKD-1718000042000-2B3C4D5E6F708192A3B4C5D6', externalId: 'payroll-2026-11-0003', amount: 40, currency: 'USD', fee: 0.65, totalDebit: 40.65, createdAt: '2024-06-10T06:14:02.000Z', bulkId, index: 2 },
    ],
    nextCursor: null,
    hasMore: false,
  },
};

/** Two bulks of a partner, newest first: one still being paid, one paid in full. */
export const bulkSummaryPageExample: PublicBulkSummaryPage = {
  items: [
    { ...bulkSummaryExample, counts: { total: 2, pending: 1, completed: 1, failed: 0 }, completedAmount: 25.5, completedFee: 0.51 },
    {
      ...bulkSummaryExample,
      bulkId: 'PKB-1717900000000-5D7F9B1C3E5A7C9E0B2D4F6A',
      externalId: 'payroll-2026-10',
      status: 'completed',
      counts: { total: 1, pending: 0, completed: 1, failed: 0 },
      totalAmount: 40,
      totalFee: 0.65,
      totalDebit: 40.65,
      completedAmount: 40,
      completedFee: 0.65,
      createdAt: '2024-06-09T06:14:02.000Z',
      completedAt: '2024-06-09T06:14:03.902Z',
    },
  ],
  nextCursor: 'eyJ2IjoxLCJzIjoiYnVsa3MifQ',
  hasMore: true,
};

const bulkQuoteRefusalFields: ErrorExtraFields = {
  items: bulkQuoteRefusalItemsSchema.meta({ description: 'On 400 PKC_5005 (no item is valid): every item’s result (each invalid, with its failureReason), in your order.' }),
};

const bulkTransferRefusalFields: ErrorExtraFields = {
  bulkId: bulkReferenceIdField.meta({ description: 'On 409 PKC_6001: the bulk of yours that holds the externalId.' }),
};

export const bulkOperations = operationFamily([
  {
    operationId: 'quoteBulkDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/bulk/quote',
    tag: 'Disbursements',
    summary: 'Quote a bulk payout',
    description: `Checks and prices 1 to ${bulkItemsMax} payouts in one currency, each as a single disbursement quote would (the body, the recipient, the user’s limits; several payouts to one user count together), and answers one result per item: valid with its fee and total debit, or invalid with the first rule it breaks. Nothing moves, no limit budget is used, and nothing but the bulk quote is stored. The bulk quote is valid 10 minutes for one bulk transfer. The whole call is refused when the body or currency is wrong (400 PKC_2008 naming the fields, PKC_2005, PKC_2010), when no item is valid (400 PKC_5005 with items: every item’s result) or when your balance does not cover the valid items’ total debit (PKC_4002). This is the one route that takes a body over 16 kb: up to 2 MB.`,
    ...partnerAccess('disbursement'),
    request: { body: { schema: bulkQuoteRequestSchema, required: true, mediaTypes: json, description: 'The currency and the payouts.', large: true } },
    success: { status: 200, description: 'The bulk quote, with one result per item.', schema: bulkQuoteSchema, enveloped: true, examples: { quote: example('Two valid payouts and one to an unknown user', bulkQuoteExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, ['PKC_2005', 'PKC_2010', 'PKC_4002', 'PKC_5005']),
    errorFields: bulkQuoteRefusalFields,
    errorExamples: {
      PKC_5005: {
        ...errorExample('PKC_5005', { items: [{ ...invalidItem, index: 0, externalId: 'payroll-2026-11-0001' }, invalidPhoneItem] }),
        message: 'No item of the bulk is valid; nothing was quoted; items holds each item’s reason',
      },
    },
  },
  {
    operationId: 'transferBulkDisbursement',
    method: 'POST',
    pathTemplate: '/partner/v1/disbursement/bulk/transfer',
    tag: 'Disbursements',
    summary: 'Send a bulk payout',
    description:
      'Uses a bulk quote: its valid items are accepted for payment (202) and paid in batches shortly after. Each becomes a disbursement with its own referenceId, status (GET /disbursement/{referenceId}), webhook (disbursement.completed or disbursement.failed) and place in your lists and statement; your balance and the user’s limits are checked again when each is paid, so an item can still fail (its failureReason says why). When the last item is final, bulk.completed is sent to your webhook. Follow the bulk with GET /disbursement/bulk/{bulkId}. Idempotent: the same bulkQuoteId and externalId again answers 200 with the same bulk; another bulk of yours holding the externalId is 409 PKC_6001 naming it.',
    ...partnerAccess('disbursement'),
    request: { body: { schema: bulkTransferRequestSchema, required: true, mediaTypes: json, description: 'The bulk quote to use and your reference for the bulk.' } },
    success: {
      status: 202,
      description: 'Accepted: the valid items are being paid.',
      schema: bulkSummarySchema,
      enveloped: true,
      examples: { accepted: example('Two payouts accepted', bulkSummaryExample) },
      alsoAnswered: {
        status: 200,
        description: 'The same bulkQuoteId and externalId were sent before: the bulk they made, as it is now.',
        examples: { again: example('Sent again after a lost answer', { ...bulkSummaryExample, counts: { total: 2, pending: 1, completed: 1, failed: 0 }, completedAmount: 25.5, completedFee: 0.51 }) },
      },
    },
    errorCodes: codes(anyRoute, permissionAdmission, ['PKC_2006', 'PKC_2009', 'PKC_5001', 'PKC_5002', 'PKC_5004', 'PKC_6001']),
    errorFields: bulkTransferRefusalFields,
    errorExamples: {
      PKC_6001: { ...errorExample('PKC_6001', { bulkId }), message: `externalId already used by bulk ${bulkId}` },
    },
  },
  {
    operationId: 'getBulkDisbursement',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursement/bulk/:bulkId',
    tag: 'Disbursements',
    summary: 'Read a bulk payout',
    description: `A bulk payout as it is now: status (processing until every item is final), counts and totals. Its items are listed by GET /disbursement/bulk/{bulkId}/items; the nested page in items (data.items.items) stays for one version, deprecated. Pages of limit items (1 to ${pageLimitMax}, default ${pageLimitDefault}); pass nextCursor as cursor for the next page. Another partner’s bulk is 403 PKC_6005; an unknown or malformed bulkId 404 PKC_6002; an invalid limit or cursor 400 PKC_2008 naming it.`,
    ...partnerAccess('disbursement'),
    request: { params: bulkIdParamsSchema, query: bulkQuerySchema },
    success: { status: 200, description: 'The bulk, with a page of its items.', schema: bulkSchema, enveloped: true, examples: { done: example('One paid, one failed', bulkExample) } },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },
  {
    operationId: 'listBulkDisbursementItems',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursement/bulk/:bulkId/items',
    tag: 'Disbursements',
    summary: 'List a bulk payout’s items',
    description: `The bulk’s items in your order (index 0 first), each the disbursement it became, in the one shape of every list (items, nextCursor, hasMore). Pages of limit items (1 to ${pageLimitMax}, default ${pageLimitDefault}); pass nextCursor as cursor for the next page. Another partner’s bulk is 403 PKC_6005; an unknown or malformed bulkId 404 PKC_6002; an invalid limit or cursor 400 PKC_2008 naming it.`,
    ...partnerAccess('disbursement'),
    request: { params: bulkIdParamsSchema, query: bulkQuerySchema },
    success: { status: 200, description: 'A page of the bulk’s items.', schema: bulkItemPageSchema, enveloped: true, examples: { done: example('One paid, one failed', bulkExample.items) } },
    errorCodes: codes(anyRoute, permissionAdmission, ownTransactionRead),
  },  {
    operationId: 'listBulkDisbursements',
    method: 'GET',
    pathTemplate: '/partner/v1/disbursement/bulks',
    tag: 'Disbursements',
    summary: 'List your bulk payouts',
    description: `Your bulk payouts, newest first (by creation time), each as its summary: bulkId, externalId, status, currency, counts and totals, as GET /disbursement/bulk/{bulkId} answers them (its items are at GET /disbursement/bulk/{bulkId}/items), in the one shape of every list (items, nextCursor, hasMore). Filters combine: status, createdFrom (inclusive) and createdTo (exclusive). Pages of limit items (1 to ${pageLimitMax}, default ${pageLimitDefault}); pass nextCursor as cursor, with the same filters, for the next page. Keyset pagination: a bulk sent while you page appears on a new first page and never shifts the pages you are reading. Unknown or invalid parameters, createdFrom after createdTo, and a cursor that is another partner’s, another list’s, made with other filters or not made by us are 400 PKC_2008 naming the parameter. You never see another partner’s bulks.`,
    ...partnerAccess('disbursement'),
    request: { query: bulkListQuerySchema },
    success: { status: 200, description: 'A page of your bulk payouts.', schema: bulkSummaryPageSchema, enveloped: true, examples: { page: example('One bulk being paid and one paid in full', bulkSummaryPageExample) } },
    errorCodes: codes(anyRoute, permissionAdmission),
  },
]);
