import { externalIdLengthMax, isUnsafeText, isUuid, unsafeTextRule, type BulkStatus } from '@pwa/contracts';
import { PkcError } from '@pwa/errors';
import { toApiAmount, type Currency } from '@pwa/money';

/** A bulk payout (issue 20, decision 0055): one partner's accepted bulk quote, its items being disbursements. */
export interface Bulk {
  /** The partner's handle, PKB-…; also the key its items carry. */
  bulkId: string;
  partnerId: string;
  externalId: string;
  bulkQuoteId: string;
  currency: Currency;
  itemCount: number;
  status: BulkStatus;
  createdAt: Date;
  completedAt: Date | null;
}

/** Where a bulk's items stand, read from the items themselves. */
export interface BulkProgress {
  pending: number;
  completed: number;
  failed: number;
  totalAmountMinor: bigint;
  totalFeeMinor: bigint;
  completedAmountMinor: bigint;
  completedFeeMinor: bigint;
}

/** The final status once no item is pending: completed when every item was paid. */
export function finalStatusOf(progress: Pick<BulkProgress, 'pending' | 'failed'>): Exclude<BulkStatus, 'processing'> | undefined {
  if (progress.pending > 0) return undefined;
  return progress.failed === 0 ? 'completed' : 'completed_with_failures';
}

export interface BulkSummaryView {
  bulkId: string;
  externalId: string;
  status: BulkStatus;
  currency: Currency;
  counts: { total: number; pending: number; completed: number; failed: number };
  totalAmount: number;
  totalFee: number;
  totalDebit: number;
  completedAmount: number;
  completedFee: number;
  createdAt: string;
  completedAt: string | null;
}

/** The bulk's summary as the transfer call and GET answer it (public contract BulkSummary). */
export function bulkSummaryView(bulk: Bulk, progress: BulkProgress): BulkSummaryView {
  return {
    bulkId: bulk.bulkId,
    externalId: bulk.externalId,
    status: bulk.status,
    currency: bulk.currency,
    counts: { total: bulk.itemCount, pending: progress.pending, completed: progress.completed, failed: progress.failed },
    totalAmount: toApiAmount(progress.totalAmountMinor),
    totalFee: toApiAmount(progress.totalFeeMinor),
    totalDebit: toApiAmount(progress.totalAmountMinor + progress.totalFeeMinor),
    completedAmount: toApiAmount(progress.completedAmountMinor),
    completedFee: toApiAmount(progress.completedFeeMinor),
    createdAt: bulk.createdAt.toISOString(),
    completedAt: bulk.completedAt?.toISOString() ?? null,
  };
}

export interface BulkTransferRequest {
  bulkQuoteId: string;
  externalId: string;
}

/**
 * Checks a bulk transfer body in one fixed order, as the single transfer's: PKC_2008 (not an
 * object; bulkQuoteId or externalId missing, null or ""; externalId not a string), PKC_2009
 * (bulkQuoteId not a UUID), PKC_2006 (externalId longer than 100 characters), PKC_2008 (a control
 * character in externalId). Other fields are ignored. Pure.
 */
export function parseBulkTransferRequest(body: unknown): BulkTransferRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PkcError('PKC_2008', 'Body must be a JSON object with bulkQuoteId and externalId');
  }
  const fields = body as Record<string, unknown>;
  const missing = (['bulkQuoteId', 'externalId'] as const).filter((name) => fields[name] === undefined || fields[name] === null || fields[name] === '');
  if (missing.length > 0) throw new PkcError('PKC_2008', `Missing required field(s): ${missing.join(', ')}`);
  if (typeof fields.externalId !== 'string') throw new PkcError('PKC_2008', 'externalId must be a string');
  if (!isUuid(fields.bulkQuoteId)) throw new PkcError('PKC_2009', 'bulkQuoteId must be a UUID');
  if ([...fields.externalId].length > externalIdLengthMax) throw new PkcError('PKC_2006');
  if (isUnsafeText(fields.externalId)) throw new PkcError('PKC_2008', `externalId ${unsafeTextRule}`);
  return { bulkQuoteId: fields.bulkQuoteId.toLowerCase(), externalId: fields.externalId };
}
