import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { apiAmountField, apiFeeField, eventCurrencies, externalIdField, failureCodeField, failureReasonField, transactionIdField, defineEventFamily } from './event-fields';

/**
 * Published by the collections service (routing key = type) when a refund of a completed
 * collection reaches its final status (issue 19, decision 0052):
 * - refund.completed: the partner was debited and the user's wallet credited, with transactionId;
 * - refund.failed: the wallet refused the posting (the partner's balance, the user's account or
 *   wallet); nothing moved and the amount is refundable again, with failureCode and failureReason.
 */
export const refundEventTypes = ['refund.completed', 'refund.failed'] as const;
export type RefundEventType = (typeof refundEventTypes)[number];

export const refundStatuses = ['processing', 'completed', 'failed'] as const;
export type RefundStatus = (typeof refundStatuses)[number];

/** PKR-<milliseconds since the epoch>-<24 uppercase hex>, as the collections service makes them. */
export const refundReferenceIdPattern = /^PKR-\d{13,16}-[0-9A-F]{24}$/;

/**
 * Version 1 of the `data` of every refund event: the spec's webhook fields (event, referenceId =
 * the refund's PKR-…, externalId = the refund's, amount, currency, fee = 0, status, transactionId
 * when completed, timestamp), plus collectionReferenceId (the refunded collection's PKC-…),
 * eventId (= the envelope's) and partnerId (whom to notify).
 */
export const refundEventDataSchema = z
  .object({
    eventId: z.uuid(),
    partnerId: z.uuid(),
    event: z.enum(refundEventTypes),
    referenceId: z.string().regex(refundReferenceIdPattern),
    collectionReferenceId: z.string().min(1),
    externalId: externalIdField,
    amount: apiAmountField,
    currency: z.enum(eventCurrencies),
    fee: apiFeeField,
    status: z.enum(['completed', 'failed']),
    /** On refund.completed only. */
    transactionId: transactionIdField.optional(),
    /** On refund.failed only. */
    failureCode: failureCodeField.optional(),
    failureReason: failureReasonField.optional(),
    timestamp: z.iso.datetime(),
  })
  .refine((data) => (data.event === 'refund.completed') === (data.status === 'completed'), { message: 'event and status disagree', path: ['status'] })
  .refine((data) => (data.status === 'completed') === (data.transactionId !== undefined), {
    message: 'transactionId is present exactly on completed events',
    path: ['transactionId'],
  })
  .refine((data) => (data.status === 'failed') === (data.failureCode !== undefined && data.failureReason !== undefined), {
    message: 'failureCode and failureReason are present exactly on failed events',
    path: ['failureCode'],
  })
  .refine((data) => data.failureReason === undefined || data.failureReason.code === data.failureCode, {
    message: 'failureReason has the code of failureCode',
    path: ['failureReason'],
  });
export type RefundEventData = z.infer<typeof refundEventDataSchema>;

export type RefundEvent = EventEnvelope<RefundEventData> & { type: RefundEventType };

const refundEvents = defineEventFamily({ family: 'refund', types: refundEventTypes, versions: [1], dataSchema: refundEventDataSchema, invalidDataMessage: 'Invalid refund event data' });
export const isRefundEventType = refundEvents.isType;
/** Parses the `data` of a refund event (version 1), or throws ContractViolationError. */
export const parseRefundEventData = refundEvents.parseData;
/** Narrows an envelope to a refund event, or throws ContractViolationError (dead-letter it). */
export const parseRefundEvent = refundEvents.parseEvent;
