import { expectedInputs, externalIdLengthMax, isUuid, refuseUnsafeText, requiredTextFields, unknownFields, type BulkStatus, type PartnerActor } from '@pwa/contracts';
import { invalidFieldError, invalidFieldsError } from '@pwa/errors';
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
  /** Who of the partner confirmed it (member:<uuid> or client:<uuid>, decision 0058 addendum); null when no edge said, and for older bulks. */
  requestedBy: PartnerActor | null;
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
 * Checks a bulk transfer body in one fixed order, as the single transfer's, naming the fields in
 * invalidFields (decision 0075): PKC_2008 (not an object; a field other than bulkQuoteId and
 * externalId; bulkQuoteId or externalId missing, null or ""; externalId not a string), PKC_2009
 * (bulkQuoteId not a UUID), PKC_2006 (externalId longer than 100 characters), PKC_2008 (a control
 * character in externalId). Pure.
 */
export function parseBulkTransferRequest(body: unknown): BulkTransferRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidFieldError('PKC_2008', 'body', 'wrong_type', `${expectedInputs.jsonObject} with bulkQuoteId and externalId`);
  }
  const fields = body as Record<string, unknown>;
  const bulkQuoteIdExpected = `the bulkQuoteId of your bulk quote: ${expectedInputs.uuid}`;
  const externalIdExpected = expectedInputs.externalId(externalIdLengthMax);
  const problems = [...requiredTextFields(fields, { bulkQuoteId: bulkQuoteIdExpected, externalId: externalIdExpected }), ...unknownFields(fields, bulkTransferFields)];
  if (fields.externalId !== undefined && fields.externalId !== null && fields.externalId !== '' && typeof fields.externalId !== 'string') problems.push({ field: 'externalId', problem: 'wrong_type', expected: externalIdExpected });
  if (problems.length > 0) throw invalidFieldsError('PKC_2008', problems);
  const { bulkQuoteId, externalId } = fields as { bulkQuoteId: unknown; externalId: string };
  if (!isUuid(bulkQuoteId)) throw invalidFieldError('PKC_2009', 'bulkQuoteId', typeof bulkQuoteId === 'string' ? 'wrong_format' : 'wrong_type', bulkQuoteIdExpected, { lead: 'bulkQuoteId is not a valid UUID' });
  if ([...externalId].length > externalIdLengthMax) throw invalidFieldError('PKC_2006', 'externalId', 'too_long', `at most ${externalIdLengthMax} characters`);
  refuseUnsafeText({ externalId });
  return { bulkQuoteId: bulkQuoteId.toLowerCase(), externalId };
}

const bulkTransferFields: ReadonlySet<string> = new Set(['bulkQuoteId', 'externalId']);
