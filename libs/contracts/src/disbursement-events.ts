import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { apiAmountField, apiFeeField, eventCurrencies, externalIdField, failureCodeField, failureReasonField, transactionIdField, defineEventFamily } from './event-fields';

/**
 * Published by the disbursements service (routing key = type).
 * - disbursement.completed: the money reached the user (the spec's event).
 * - disbursement.failed: not in the spec's event list ("not shown"); an attempt ended without
 *   moving money (wallet refusal, wallet unavailable, or budget timeout), with failureCode.
 * - disbursement.reversed: not in the spec's event list either (decision 0063); the operator
 *   reversed a completed disbursement (decision 0053) and the amount went back to the partner's
 *   balance. Its status stays completed (the spec has no reversed status); `reversal` says what
 *   was reversed, by which transaction, and when.
 */
export const disbursementEventTypes = ['disbursement.completed', 'disbursement.failed', 'disbursement.reversed'] as const;
export type DisbursementEventType = (typeof disbursementEventTypes)[number];

export const disbursementEventStatuses = ['completed', 'failed'] as const;
export type DisbursementEventStatus = (typeof disbursementEventStatuses)[number];

/** PKD-<milliseconds since the epoch>-<24 uppercase hex>, as the disbursements service makes them. */
export const disbursementReferenceIdPattern = /^PKD-\d{13,16}-[0-9A-F]{24}$/;

/**
 * The reversal of a completed disbursement as the partner is told it: the reversal's own
 * transaction (a `reversal` line of the statement), the amount and currency given back to the
 * partner's balance (the whole amount; the fee is not returned) and when. No operator, no reason.
 */
export const disbursementReversalField = z.object({
  transactionId: transactionIdField,
  amount: apiAmountField,
  currency: z.enum(eventCurrencies),
  reversedAt: z.iso.datetime(),
});
export type DisbursementReversal = z.infer<typeof disbursementReversalField>;

/**
 * Version 1 of the `data` of every disbursement event: exactly the spec's webhook fields plus
 * eventId (= the envelope's) and partnerId (whom to notify); disbursement.reversed (status
 * completed, with the disbursement's transactionId) adds `reversal`.
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
    /** On disbursement.reversed only. */
    reversal: disbursementReversalField.optional(),
  })
  .refine((data) => (data.event === 'disbursement.failed') === (data.status === 'failed'), { message: 'event and status disagree', path: ['status'] })
  .refine((data) => (data.event === 'disbursement.reversed') === (data.reversal !== undefined), {
    message: 'reversal is present exactly on disbursement.reversed',
    path: ['reversal'],
  })
  .refine((data) => data.reversal === undefined || (data.reversal.amount === data.amount && data.reversal.currency === data.currency), {
    message: 'a reversal gives back the disbursement’s whole amount in its currency',
    path: ['reversal'],
  })
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

const disbursementEvents = defineEventFamily({ family: 'disbursement', types: disbursementEventTypes, versions: [1], dataSchema: disbursementEventDataSchema, invalidDataMessage: 'Invalid disbursement event data' });
export const isDisbursementEventType = disbursementEvents.isType;
/** Parses the `data` of a disbursement event (version 1), or throws ContractViolationError. */
export const parseDisbursementEventData = disbursementEvents.parseData;
/** Narrows an envelope to a disbursement event, or throws ContractViolationError (dead-letter it). */
export const parseDisbursementEvent = disbursementEvents.parseEvent;
