import { randomUUID } from 'node:crypto';
import { z } from '@pwa/config';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { currencies, toApiAmount } from '@pwa/money';
import { totalDebitMinorOf, type Disbursement } from '../domain/disbursement';
import { referenceIdPattern } from '../domain/reference-id';

/**
 * Events this service publishes (routing key = type). They live here until libs/contracts takes
 * them over; the webhooks service will turn them into the spec's webhook payload, which is why the
 * data carries exactly the spec's webhook fields plus eventId and partnerId.
 *
 * - disbursement.completed: the money reached the user (the spec's event).
 * - disbursement.failed: not in the spec's event list ("not shown"); emitted when an attempt ends
 *   without moving money (wallet refusal, wallet unavailable, or budget timeout), with failureCode.
 */
export const disbursementEventTypes = ['disbursement.completed', 'disbursement.failed'] as const;
export type DisbursementEventType = (typeof disbursementEventTypes)[number];

export const disbursementEventDataSchema = z
  .object({
    eventId: z.uuid(),
    partnerId: z.uuid(),
    event: z.enum(disbursementEventTypes),
    referenceId: z.string().regex(referenceIdPattern),
    externalId: z.string().min(1).max(100),
    amount: z.number().positive(),
    currency: z.enum(currencies),
    fee: z.number().min(0),
    totalDebit: z.number().positive(),
    status: z.enum(['completed', 'failed']),
    transactionId: z.string().regex(/^TXN-[0-9A-F]+$/).optional(),
    failureCode: z.string().regex(/^PKC_\d{4}$/).optional(),
    timestamp: z.iso.datetime(),
  })
  .refine((data) => (data.event === 'disbursement.completed') === (data.status === 'completed'), { message: 'event and status disagree' })
  .refine((data) => (data.status === 'completed') === (data.transactionId !== undefined), { message: 'transactionId is present exactly on completed events' })
  .refine((data) => (data.status === 'failed') === (data.failureCode !== undefined), { message: 'failureCode is present exactly on failed events' });
export type DisbursementEventData = z.infer<typeof disbursementEventDataSchema>;

/** Builds the event of a disbursement that reached a final state, validated against the schema. */
export function disbursementEvent(disbursement: Disbursement, occurredAt: Date): EventEnvelope<DisbursementEventData> {
  const eventId = randomUUID();
  const completed = disbursement.status === 'completed';
  const event: DisbursementEventType = completed ? 'disbursement.completed' : 'disbursement.failed';
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
    ...(completed || disbursement.failureCode === null ? {} : { failureCode: disbursement.failureCode }),
    timestamp: occurredAt.toISOString(),
  });
  return createEventEnvelope({ type: event, data, producer: 'disbursements', eventId, occurredAt });
}

/** For consumers and tests: parses the data of a disbursement event, or throws. */
export function parseDisbursementEventData(value: unknown): DisbursementEventData {
  return disbursementEventDataSchema.parse(value);
}
