import { toApiAmount } from '@pwa/money';
import type { Collection } from './collection';
import { totalDebitMinorOf } from './collection';
import { partnerVisibleStatus } from './collection-state-machine';
import { failureReasonOf } from './failure-reason';

/** data of the 202 answer to POST /partner/v1/collection/request. */
export function confirmView(collection: Collection): Record<string, unknown> {
  return {
    referenceId: collection.referenceId,
    status: partnerVisibleStatus(collection.status),
    amount: toApiAmount(collection.amountMinor),
    currency: collection.currency,
    fee: toApiAmount(collection.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(collection)),
    expiresAt: collection.expiresAt.toISOString(),
    message: `Collection request sent to ${collection.recipientName}; waiting for approval until ${collection.expiresAt.toISOString()}`,
  };
}

/**
 * data of GET /partner/v1/collection/{referenceId}: the spec's fields, plus expiresAt for every
 * status; transactionId (an object) only when completed, since only then did money move;
 * refundedAmount (the sum of its refunds in progress or completed) only when completed;
 * failureReason (code and partner message) only when failed.
 */
export function statusView(collection: Collection): Record<string, unknown> {
  const failureReason = failureReasonOf(collection);
  return {
    referenceId: collection.referenceId,
    externalId: collection.externalId,
    status: partnerVisibleStatus(collection.status),
    amount: toApiAmount(collection.amountMinor),
    currency: collection.currency,
    fee: toApiAmount(collection.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(collection)),
    ...(collection.status === 'completed' && collection.transactionId !== null
      ? { transactionId: { transactionId: collection.transactionId, status: 'completed', completedAt: (collection.resolvedAt ?? collection.createdAt).toISOString() } }
      : {}),
    ...(collection.status === 'completed' ? { refundedAmount: toApiAmount(collection.refundedMinor) } : {}),
    expiresAt: collection.expiresAt.toISOString(),
    createdAt: collection.createdAt.toISOString(),
    ...(failureReason === undefined ? {} : { failureReason }),
  };
}

/** What the user's app shows of a collection (internal app API). */
export function appView(collection: Collection): Record<string, unknown> {
  return {
    referenceId: collection.referenceId,
    status: collection.status,
    amount: toApiAmount(collection.amountMinor),
    currency: collection.currency,
    fee: toApiAmount(collection.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(collection)),
    note: collection.note,
    expiresAt: collection.expiresAt.toISOString(),
    createdAt: collection.createdAt.toISOString(),
    ...(collection.transactionId === null ? {} : { transactionId: collection.transactionId }),
    ...(collection.failureCode === null ? {} : { failureCode: collection.failureCode }),
  };
}
