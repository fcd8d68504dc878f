import { randomUUID } from 'node:crypto';
import { createEventEnvelope, disbursementEventDataSchema, type DisbursementEventData, type DisbursementEventType, type EventEnvelope } from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import { totalDebitMinorOf, type Disbursement } from '../domain/disbursement';
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
