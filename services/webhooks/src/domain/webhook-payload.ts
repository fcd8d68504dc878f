import type { BulkEventData, CollectionEventData, DisbursementEventData, DisbursementReversal, FailureReason, RefundEventData } from '@pwa/contracts';

/** The data of every event of one transaction that becomes a webhook. */
export type TransactionEventData = CollectionEventData | DisbursementEventData | RefundEventData;
/** The data of every event that becomes a webhook: a transaction's, or a bulk payout's bulk.completed. */
export type DeliveredEventData = TransactionEventData | BulkEventData;
import { errorCatalogue, isPkcCode } from '@pwa/errors';

/**
 * The spec's webhook body, field for field and in the spec's order, plus the additions at the end:
 * `failureReason` (code and partner message) on failed events, `collectionReferenceId` (the
 * refunded collection) on refund events, and `reversal` on disbursement.reversed (decision 0063).
 * Nothing else of the event leaks out.
 */
export interface WebhookPayload {
  event: string;
  referenceId: string;
  externalId: string;
  amount: number;
  currency: string;
  fee: number;
  status: string;
  transactionId?: string;
  timestamp: string;
  failureReason?: FailureReason;
  collectionReferenceId?: string;
  reversal?: DisbursementReversal;
}

/**
 * The body of bulk.completed (issue 20): the bulk event's data without eventId and partnerId, in
 * its order; the bulk is named by bulkId, as the bulk endpoints name it.
 */
export interface BulkCompletedWebhookPayload {
  event: BulkEventData['event'];
  bulkId: string;
  externalId: string;
  status: BulkEventData['status'];
  currency: string;
  itemCount: number;
  completedCount: number;
  failedCount: number;
  totalAmount: number;
  totalFee: number;
  completedAmount: number;
  completedFee: number;
  timestamp: string;
}

export function isBulkEventData(data: DeliveredEventData): data is BulkEventData {
  return data.event === 'bulk.completed';
}

/** The id a delivery of the event is listed under (GET /webhooks/deliveries referenceId): the transaction's referenceId or the bulk's bulkId. */
export function deliveryReferenceIdOf(data: DeliveredEventData): string {
  return isBulkEventData(data) ? data.bulkId : data.referenceId;
}

export function bulkCompletedPayloadOf(data: BulkEventData): BulkCompletedWebhookPayload {
  return {
    event: data.event,
    bulkId: data.bulkId,
    externalId: data.externalId,
    status: data.status,
    currency: data.currency,
    itemCount: data.itemCount,
    completedCount: data.completedCount,
    failedCount: data.failedCount,
    totalAmount: data.totalAmount,
    totalFee: data.totalFee,
    completedAmount: data.completedAmount,
    completedFee: data.completedFee,
    timestamp: data.timestamp,
  };
}

export function webhookPayloadOf(data: TransactionEventData): WebhookPayload {
  const failureReason = failureReasonOf(data);
  return {
    event: data.event,
    referenceId: data.referenceId,
    externalId: data.externalId,
    amount: data.amount,
    currency: data.currency,
    fee: data.fee,
    status: data.status,
    ...(data.transactionId === undefined ? {} : { transactionId: data.transactionId }),
    timestamp: data.timestamp,
    ...(failureReason === undefined ? {} : { failureReason }),
    ...('collectionReferenceId' in data ? { collectionReferenceId: data.collectionReferenceId } : {}),
    ...('reversal' in data && data.reversal !== undefined ? { reversal: reversalOf(data.reversal) } : {}),
  };
}

/** The reversal's fields in the contract's order, and nothing else. */
function reversalOf(reversal: DisbursementReversal): DisbursementReversal {
  return { transactionId: reversal.transactionId, amount: reversal.amount, currency: reversal.currency, reversedAt: reversal.reversedAt };
}

/**
 * A failed event's reason: as the producer gave it, or, for events recorded before producers gave
 * one (failureCode alone), that code with its catalogue message. Only failed events have one.
 */
function failureReasonOf(data: TransactionEventData): FailureReason | undefined {
  if (data.status !== 'failed') return undefined;
  if (data.failureReason !== undefined) return data.failureReason;
  const code = data.failureCode;
  if (code === undefined) return undefined;
  return isPkcCode(code) ? { code, message: errorCatalogue[code].message } : { code: 'PKC_7002', message: errorCatalogue.PKC_7002.message };
}

/** The body is serialised once, when the event is recorded, and every attempt sends these bytes. */
export function webhookBodyOf(data: DeliveredEventData): string {
  return JSON.stringify(isBulkEventData(data) ? bulkCompletedPayloadOf(data) : webhookPayloadOf(data));
}

/** The body of webhook.test (issue 28): the test's own id (PKT-…), what it is, and when it was asked for. Compact JSON, as every body. */
export function webhookTestBodyOf(referenceId: string, askedAt: Date): string {
  return JSON.stringify({ event: 'webhook.test', referenceId, message: 'A test webhook you asked for: no money moved.', timestamp: askedAt.toISOString() });
}

/** A test webhook's id: PKT-<ms>-<16 uppercase hex> (libs/contracts webhookTestReferenceIdPattern). */
export function webhookTestReferenceIdOf(askedAt: Date, randomHex: string): string {
  return `PKT-${askedAt.getTime()}-${randomHex.toUpperCase()}`;
}
