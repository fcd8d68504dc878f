import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { apiAmountField, apiFeeField, eventCurrencies, externalIdField, failureReasonField, transactionIdField, defineEventFamily } from './event-fields';

/**
 * Published by the collections service (routing key = type); the webhooks service turns them into
 * the spec's webhook. collection.requested also notifies the user (it names the phone and the note).
 * collection.cancelled (issue 19) is the partner withdrawing a pending request.
 */
export const collectionEventTypes = ['collection.requested', 'collection.completed', 'collection.declined', 'collection.expired', 'collection.failed', 'collection.cancelled'] as const;
export type CollectionEventType = (typeof collectionEventTypes)[number];

export const collectionEventStatuses = ['pending_approval', 'completed', 'declined', 'expired', 'failed', 'cancelled'] as const;
export type CollectionEventStatus = (typeof collectionEventStatuses)[number];

/** The collection's status right after the change each event reports. */
export const collectionStatusOfEvent: Readonly<Record<CollectionEventType, CollectionEventStatus>> = Object.freeze({
  'collection.requested': 'pending_approval',
  'collection.completed': 'completed',
  'collection.declined': 'declined',
  'collection.expired': 'expired',
  'collection.failed': 'failed',
  'collection.cancelled': 'cancelled',
});

/**
 * Version 1 of the `data` of every collection event: the spec's webhook fields (event,
 * referenceId, externalId, amount, currency, fee, status, transactionId when completed, timestamp)
 * plus eventId (= the envelope's) and partnerId (whom to notify).
 */
export const collectionEventDataSchema = z
  .object({
    eventId: z.uuid(),
    event: z.enum(collectionEventTypes),
    partnerId: z.uuid(),
    referenceId: z.string().min(1),
    externalId: externalIdField,
    amount: apiAmountField,
    currency: z.enum(eventCurrencies),
    fee: apiFeeField,
    status: z.enum(collectionEventStatuses),
    /** On collection.completed only. */
    transactionId: transactionIdField.optional(),
    timestamp: z.iso.datetime(),
    /** On collection.requested only: the user to notify, in +231 form. */
    phone: z.string().optional(),
    note: z.string().nullable().optional(),
    /** On collection.failed only: the PKC code of the failure. */
    failureCode: z.string().optional(),
    /** On collection.failed only, and optional (events recorded before it have failureCode alone): code and partner message. */
    failureReason: failureReasonField.optional(),
  })
  .refine((data) => collectionStatusOfEvent[data.event] === data.status, { message: 'event and status disagree', path: ['status'] })
  .refine((data) => (data.event === 'collection.completed') === (data.transactionId !== undefined), {
    message: 'transactionId is present exactly on collection.completed',
    path: ['transactionId'],
  })
  .refine((data) => data.failureReason === undefined || (data.event === 'collection.failed' && data.failureReason.code === data.failureCode), {
    message: 'failureReason is only on collection.failed, with the code of failureCode',
    path: ['failureReason'],
  });
export type CollectionEventData = z.infer<typeof collectionEventDataSchema>;

export type CollectionEvent = EventEnvelope<CollectionEventData> & { type: CollectionEventType };

const collectionEvents = defineEventFamily({ family: 'collection', types: collectionEventTypes, versions: [1], dataSchema: collectionEventDataSchema, invalidDataMessage: 'Invalid collection event data' });
export const isCollectionEventType = collectionEvents.isType;
/** Parses the `data` of a collection event (version 1), or throws ContractViolationError. */
export const parseCollectionEventData = collectionEvents.parseData;
/** Narrows an envelope to a collection event, or throws ContractViolationError (dead-letter it). */
export const parseCollectionEvent = collectionEvents.parseEvent;
