import { randomUUID } from 'node:crypto';
import { createEventEnvelope, disbursementEventDataSchema, type DisbursementEventData, type DisbursementEventType, type EventEnvelope } from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import { reversalView, totalDebitMinorOf, type Disbursement, type DisbursementReversalRecord } from '../domain/disbursement';
import { failureReasonOf } from '../domain/failure-reason';

/**
 * Builds the event of a disbursement that reached a final state. The contract (types, data schema,
 * version) is `@pwa/contracts` (disbursement-events); this only maps the domain row onto it, and
 * refuses to build an event that would not parse.
 */
export function disbursementEvent(disbursement: Disbursement, occurredAt: Date): EventEnvelope<DisbursementEventData> {
  const eventId = randomUUID();
  const completed = disbursement.status === 'completed';
  const event: DisbursementEventType = completed ? 'disbursement.completed' : 'disbursement.failed';
  const failureReason = completed ? undefined : failureReasonOf(disbursement);
  const data = disbursementEventDataSchema.parse({
    eventId,
    partnerId: disbursement.partnerId,
    event,
    referenceId: disbursement.referenceId,
    externalId: disbursement.externalId,
    amount: toApiAmount(disbursement.amountMinor),
    currency: disbursement.currency,
    fee: toApiAmount(disbursement.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(disbursement)),
    status: completed ? 'completed' : 'failed',
    ...(disbursement.transactionId === null ? {} : { transactionId: disbursement.transactionId }),
    ...(failureReason === undefined ? {} : { failureCode: failureReason.code, failureReason }),
    timestamp: occurredAt.toISOString(),
  });
  return createEventEnvelope({ type: event, data, producer: 'disbursements', eventId, occurredAt });
}

/**
 * Builds disbursement.reversed (decision 0063) for a completed disbursement the operator reversed:
 * the spec's fields as disbursement.completed has them (status completed, the disbursement's
 * transactionId), `reversal` added, and the reversal's time as timestamp.
 */
export function disbursementReversedEvent(disbursement: Disbursement, reversal: DisbursementReversalRecord): EventEnvelope<DisbursementEventData> {
  const eventId = randomUUID();
  const data = disbursementEventDataSchema.parse({
    eventId,
    partnerId: disbursement.partnerId,
    event: 'disbursement.reversed',
    referenceId: disbursement.referenceId,
    externalId: disbursement.externalId,
    amount: toApiAmount(disbursement.amountMinor),
    currency: disbursement.currency,
    fee: toApiAmount(disbursement.feeMinor),
    totalDebit: toApiAmount(totalDebitMinorOf(disbursement)),
    status: 'completed',
    transactionId: disbursement.transactionId,
    timestamp: reversal.reversedAt.toISOString(),
    reversal: reversalView(disbursement, reversal),
  });
  return createEventEnvelope({ type: data.event, data, producer: 'disbursements', eventId, occurredAt: reversal.reversedAt });
}
