import { toApiAmount } from '@pwa/money';
import type { Refund } from './refund';
import { failureCodeOf, failureMessageFor, type FailureReason } from './failure-reason';

/** Why a refund failed, as the partner is told it; undefined unless failed. */
export function refundFailureReasonOf(refund: Pick<Refund, 'status' | 'failureCode' | 'failureMessage'>): FailureReason | undefined {
  if (refund.status !== 'failed' || refund.failureCode === null) return undefined;
  const code = failureCodeOf(refund.failureCode);
  return { code, message: refund.failureMessage ?? failureMessageFor(code) };
}

/**
 * The Refund object of the public API (POST .../refund, GET /partner/v1/refund/{referenceId}, the
 * refunds list): transactionId and completedAt only when completed, failureReason only when
 * failed; fee is always 0 (a refund carries no fee, decision 0052); collectionRefundedAmount is the
 * collection's refunded total as read with the refund.
 */
export function refundView(refund: Refund): Record<string, unknown> {
  const failureReason = refundFailureReasonOf(refund);
  return {
    referenceId: refund.referenceId,
    collectionReferenceId: refund.collectionReferenceId,
    externalId: refund.externalId,
    status: refund.status,
    amount: toApiAmount(refund.amountMinor),
    currency: refund.currency,
    fee: 0,
    reason: refund.reason,
    ...(refund.status === 'completed' && refund.transactionId !== null
      ? { transactionId: refund.transactionId, completedAt: (refund.resolvedAt ?? refund.createdAt).toISOString() }
      : {}),
    ...(failureReason === undefined ? {} : { failureReason }),
    createdAt: refund.createdAt.toISOString(),
    collectionRefundedAmount: toApiAmount(refund.collectionRefundedMinor),
  };
}
