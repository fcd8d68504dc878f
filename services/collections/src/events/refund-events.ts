import { randomUUID } from 'node:crypto';
import { createEventEnvelope, refundEventDataSchema, type EventEnvelope, type RefundEventData, type RefundEventType } from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import type { Refund } from '../domain/refund';
import { refundFailureReasonOf } from '../domain/refund-views';

/**
 * A valid envelope for a refund that has just reached its final status. The contract is
 * `@pwa/contracts` (refund-events); this only maps the row onto it, and refuses to build an event
 * that would not parse.
 */
export function refundEvent(type: RefundEventType, refund: Refund, occurredAt: Date = new Date()): EventEnvelope<RefundEventData> {
  const eventId = randomUUID();
  const failureReason = refundFailureReasonOf(refund);
  const data = refundEventDataSchema.parse({
    eventId,
    event: type,
    partnerId: refund.partnerId,
    referenceId: refund.referenceId,
    collectionReferenceId: refund.collectionReferenceId,
    externalId: refund.externalId,
    amount: toApiAmount(refund.amountMinor),
    currency: refund.currency,
    fee: 0,
    status: type === 'refund.completed' ? 'completed' : 'failed',
    ...(type === 'refund.completed' && refund.transactionId !== null ? { transactionId: refund.transactionId } : {}),
    ...(failureReason === undefined ? {} : { failureCode: failureReason.code, failureReason }),
    timestamp: occurredAt.toISOString(),
  });
  return createEventEnvelope({ type, data, producer: 'collections', eventId, occurredAt });
}
