import { z } from 'zod';
import { currencyField, instantField, minorUnitsField, transactionTypeField, uuidField, type TransactionType } from './wire-fields';

/**
 * The quotes service's internal HTTP API, owned by quotes (it parses the body with these schemas)
 * and used by collections and disbursements, which read the answer with them.
 */
export const quotesPaths = {
  consume: (quoteId: string): string => `/internal/quotes/${encodeURIComponent(quoteId)}/consume`,
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
} as const;
