import { z } from 'zod';
import { currencyField, instantField, minorUnitsField, transactionTypeField, uuidField, type TransactionType } from './wire-fields';

/**
 * The quotes service's internal HTTP API, owned by quotes (it parses the body with these schemas)
 * and used by collections and disbursements, which read the answer with them.
 */
export const quotesPaths = {
  consume: (quoteId: string): string => `/internal/quotes/${encodeURIComponent(quoteId)}/consume`,
  bulkQuotes: '/internal/bulk-quotes',
  consumeBulkQuote: (bulkQuoteId: string): string => `/internal/bulk-quotes/${encodeURIComponent(bulkQuoteId)}/consume`,
} as const;

/** POST /internal/quotes/:quoteId/consume: uses the quote once, atomically. */
export const quoteConsumeRequestSchema = z.object({ partnerId: uuidField, type: transactionTypeField });
export type QuoteConsumeRequest = z.output<typeof quoteConsumeRequestSchema>;

export function quoteConsumeBody(partnerId: string, type: TransactionType): z.input<typeof quoteConsumeRequestSchema> {
  return { partnerId, type };
}

export const consumedQuoteAnswerSchema = z.object({
  quoteId: uuidField,
  type: transactionTypeField,
  partnerId: uuidField,
  phone: z.string().min(1),
  currency: currencyField,
  amountMinor: minorUnitsField,
  feeMinor: minorUnitsField,
  totalDebitMinor: minorUnitsField,
  recipientName: z.string().min(1),
  expiresAt: instantField,
  usedAt: instantField,
});
export type ConsumedQuoteAnswer = z.output<typeof consumedQuoteAnswerSchema>;

// ---- Bulk disbursement quotes (issue 20, decision 0055) --------------------------------------

/** The most payouts one bulk may carry (the public contract's bound). */
export const bulkItemsMax = 1_000;

/**
 * One payout of a bulk that passed the disbursements service's checks of its own fields (phone,
 * amount as written and its bounds, externalId, note, duplicates): index is its place in the
 * partner's list (0-based), phone is normalised (+231…).
 */
export const bulkQuoteItemSchema = z.object({
  index: z.number().int().min(0).max(bulkItemsMax - 1),
  phone: z.string().min(1).max(32),
  amountMinor: minorUnitsField.refine((minor) => minor > 0n, 'must be greater than zero'),
  /** At most 100 characters (code points, as the partner counts them and Postgres stores them): up to 200 UTF-16 units. */
  externalId: z.string().min(1).max(200),
  /** At most 200 characters: up to 400 UTF-16 units. */
  note: z.string().min(1).max(400).nullable(),
});
export type BulkQuoteItem = z.output<typeof bulkQuoteItemSchema>;

function indexesUnique(body: { items: readonly { index: number }[] }): boolean {
  return new Set(body.items.map((item) => item.index)).size === body.items.length;
}

/**
 * POST /internal/bulk-quotes: prices every item with the disbursement fee schedule in force, runs
 * the wallet's read-only batch check (account, wallet, KYC, limits per item, in order), weighs the
 * total debit of the items that pass against the partner's balance (400 PKC_4002 for the whole
 * call when it does not cover them; then nothing is stored), and stores the bulk quote with every
 * item. 400 PKC_2010 when the currency is not enabled for disbursements. Nothing is consumed.
 */
export const bulkQuoteRequestSchema = z
  .object({
    partnerId: uuidField,
    currency: currencyField,
    items: z.array(bulkQuoteItemSchema).min(1).max(bulkItemsMax),
  })
  .refine(indexesUnique, { message: 'every index of a bulk must be different', path: ['items'] });
export type BulkQuoteRequest = z.output<typeof bulkQuoteRequestSchema>;

/** One item's quote: valid with its fee and the recipient's name, or invalid with the first failing rule's code. */
export const bulkQuoteItemResultSchema = z.discriminatedUnion('outcome', [
  z.object({ index: z.number().int().min(0), outcome: z.literal('valid'), feeMinor: minorUnitsField, recipientName: z.string().min(1) }),
  z.object({ index: z.number().int().min(0), outcome: z.literal('invalid'), code: z.string().regex(/^PKC_\d{4}$/, 'must be a PKC code') }),
]);
export type BulkQuoteItemResult = z.output<typeof bulkQuoteItemResultSchema>;

/**
 * 200: the stored bulk quote (bulkQuoteId null when no item is valid: then nothing was stored),
 * one result per item in the request's order, and the partner's balance it was weighed against.
 */
export const bulkQuoteAnswerSchema = z.object({
  bulkQuoteId: uuidField.nullable(),
  currency: currencyField,
  expiresAt: instantField,
  partnerBalanceMinor: minorUnitsField,
  items: z.array(bulkQuoteItemResultSchema),
});
export type BulkQuoteAnswer = z.output<typeof bulkQuoteAnswerSchema>;

/** POST /internal/bulk-quotes/:bulkQuoteId/consume: uses the bulk quote once, atomically (refusals as a quote's: 5001, 5004, 5002). */
export const bulkQuoteConsumeRequestSchema = z.object({ partnerId: uuidField });

/** 200: the valid items of the consumed bulk quote, in the partner's order, with their fees fixed. */
export const consumedBulkQuoteAnswerSchema = z.object({
  bulkQuoteId: uuidField,
  partnerId: uuidField,
  currency: currencyField,
  expiresAt: instantField,
  usedAt: instantField,
  items: z.array(
    z.object({
      index: z.number().int().min(0),
      phone: z.string().min(1),
      recipientName: z.string().min(1),
      amountMinor: minorUnitsField,
      feeMinor: minorUnitsField,
      externalId: z.string().min(1),
      note: z.string().nullable(),
    }),
  ),
});
export type ConsumedBulkQuoteAnswer = z.output<typeof consumedBulkQuoteAnswerSchema>;

export const quotesContractExamples = {
  consumeRequest: { partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d', type: 'disbursement' },
  consumedAnswer: {
    quoteId: '60245d2b-1744-4850-92be-140dd2bb0c50',
    type: 'disbursement',
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    phone: '+231770000001',
    currency: 'USD',
    amountMinor: '1025',
    feeMinor: '35',
    totalDebitMinor: '1060',
    recipientName: 'Comfort Gold',
    expiresAt: '2026-11-25T17:22:36.000Z',
    usedAt: '2026-11-25T17:12:40.000Z',
  },
  bulkQuoteRequest: {
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    currency: 'USD',
    items: [
      { index: 0, phone: '+231770000001', amountMinor: '1025', externalId: 'payroll-2026-11-0001', note: 'November salary' },
      { index: 2, phone: '+231770000009', amountMinor: '2000', externalId: 'payroll-2026-11-0003', note: null },
    ],
  },
  bulkQuoteAnswer: {
    bulkQuoteId: '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f',
    currency: 'USD',
    expiresAt: '2026-11-25T17:22:36.000Z',
    partnerBalanceMinor: '1000000',
    items: [
      { index: 0, outcome: 'valid', feeMinor: '35', recipientName: 'Comfort Gold' },
      { index: 2, outcome: 'invalid', code: 'PKC_3001' },
    ],
  },
  consumeBulkQuoteRequest: { partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' },
  consumedBulkQuoteAnswer: {
    bulkQuoteId: '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f',
    partnerId: '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d',
    currency: 'USD',
    expiresAt: '2026-11-25T17:22:36.000Z',
    usedAt: '2026-11-25T17:13:02.000Z',
    items: [{ index: 0, phone: '+231770000001', recipientName: 'Comfort Gold', amountMinor: '1025', feeMinor: '35', externalId: 'payroll-2026-11-0001', note: 'November salary' }],
  },
} as const;
