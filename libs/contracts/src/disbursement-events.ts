import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { apiAmountField, apiFeeField, eventCurrencies, externalIdField, failureCodeField, failureReasonField, parseFamilyEvent, parseWith, transactionIdField } from './event-fields';

/**
 * Published by the disbursements service (routing key = type).
 * - disbursement.completed: the money reached the user (the spec's event).
 * - disbursement.failed: not in the spec's event list ("not shown"); an attempt ended without
 *   moving money (wallet refusal, wallet unavailable, or budget timeout), with failureCode.
 */
export const disbursementEventTypes = ['disbursement.completed', 'disbursement.failed'] as const;
export type DisbursementEventType = (typeof disbursementEventTypes)[number];

export const disbursementEventStatuses = ['completed', 'failed'] as const;
export type DisbursementEventStatus = (typeof disbursementEventStatuses)[number];

/** PKD-<milliseconds since the epoch>-<24 uppercase hex>, as the disbursements service makes them. */
export const disbursementReferenceIdPattern = /^PKD-\d{13,16}-[0-9A-F]{24}$/;

/**
 * Version 1 of the `data` of every disbursement event: exactly the spec's webhook fields plus
 * eventId (= the envelope's) and partnerId (whom to notify).
 */
export const disbursementEventDataSchema = z
  .object({
    eventId: z.uuid(),
    partnerId: z.uuid(),
    event: z.enum(disbursementEventTypes),
    referenceId: z.string().regex(disbursementReferenceIdPattern),
    externalId: externalIdField,
    amount: apiAmountField,
    currency: z.enum(eventCurrencies),
    fee: apiFeeField,
    totalDebit: z.number().positive(),
    status: z.enum(disbursementEventStatuses),
    /** On disbursement.completed only. */
    transactionId: transactionIdField.optional(),
    /** On disbursement.failed only (PKC_4002, PKC_7003, PKC_7004, …). */
    failureCode: failureCodeField.optional(),
    /** On disbursement.failed only, and optional (events recorded before it have failureCode alone): code and partner message. */
    failureReason: failureReasonField.optional(),
    timestamp: z.iso.datetime(),
  })
  .refine((data) => (data.event === 'disbursement.completed') === (data.status === 'completed'), { message: 'event and status disagree', path: ['status'] })
  .refine((data) => (data.status === 'completed') === (data.transactionId !== undefined), {
    message: 'transactionId is present exactly on completed events',
    path: ['transactionId'],
  })
  .refine((data) => (data.status === 'failed') === (data.failureCode !== undefined), {
    message: 'failureCode is present exactly on failed events',
    path: ['failureCode'],
  })
  .refine((data) => data.failureReason === undefined || (data.status === 'failed' && data.failureReason.code === data.failureCode), {
    message: 'failureReason is only on failed events, with the code of failureCode',
    path: ['failureReason'],
  });
export type DisbursementEventData = z.infer<typeof disbursementEventDataSchema>;

export type DisbursementEvent = EventEnvelope<DisbursementEventData> & { type: DisbursementEventType };

const supportedDisbursementEventVersions: readonly number[] = [1];

export function isDisbursementEventType(type: string): type is DisbursementEventType {
  return (disbursementEventTypes as readonly string[]).includes(type);
}

/** Parses the `data` of a disbursement event (version 1), or throws ContractViolationError. */
export function parseDisbursementEventData(value: unknown): DisbursementEventData {
  return parseWith(disbursementEventDataSchema, 'Invalid disbursement event data', value);
}

/** Narrows an envelope to a disbursement event, or throws ContractViolationError (dead-letter it). */
export function parseDisbursementEvent(envelope: EventEnvelope): DisbursementEvent {
  return parseFamilyEvent(envelope, {
    family: 'disbursement',
    types: disbursementEventTypes,
    versions: supportedDisbursementEventVersions,
    parseData: parseDisbursementEventData,
  });
}
