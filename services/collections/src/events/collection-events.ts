import { randomUUID } from 'node:crypto';
import { z } from '@pwa/config';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import type { Collection } from '../domain/collection';

/**
 * Events of the collections service (routing key = type). Their data carries the spec's webhook
 * fields (event, referenceId, externalId, amount, currency, fee, status, transactionId when
 * completed, timestamp) plus eventId and partnerId, so the webhooks service can sign and deliver
 * them without asking anyone. collection.requested also names the user's phone and the note (it
 * is what notifies the user); collection.failed names the failure code.
 * To move to libs/contracts once the webhooks service consumes them.
 */
export const collectionEventTypes = ['collection.requested', 'collection.completed', 'collection.declined', 'collection.expired', 'collection.failed'] as const;
export type CollectionEventType = (typeof collectionEventTypes)[number];

export const collectionEventDataSchema = z.object({
  eventId: z.uuid(),
  event: z.enum(collectionEventTypes),
  partnerId: z.uuid(),
  referenceId: z.string().min(1),
  externalId: z.string().min(1).max(100),
  amount: z.number().positive(),
  currency: z.enum(['LRD', 'USD']),
  fee: z.number().min(0),
  status: z.enum(['pending_approval', 'completed', 'declined', 'expired', 'failed']),
  transactionId: z.string().regex(/^TXN-[0-9A-F]+$/).optional(),
  timestamp: z.iso.datetime(),
  phone: z.string().optional(),
  note: z.string().nullable().optional(),
  failureCode: z.string().optional(),
});
export type CollectionEventData = z.infer<typeof collectionEventDataSchema>;

const statusOfEvent: Record<CollectionEventType, CollectionEventData['status']> = {
  'collection.requested': 'pending_approval',
  'collection.completed': 'completed',
  'collection.declined': 'declined',
  'collection.expired': 'expired',
  'collection.failed': 'failed',
};

/** Builds a valid envelope for a collection that has just reached the event's status. */
export function collectionEvent(type: CollectionEventType, collection: Collection, occurredAt: Date = new Date()): EventEnvelope<CollectionEventData> {
  const eventId = randomUUID();
  const data = collectionEventDataSchema.parse({
    eventId,
    event: type,
    partnerId: collection.partnerId,
    referenceId: collection.referenceId,
    externalId: collection.externalId,
    amount: toApiAmount(collection.amountMinor),
    currency: collection.currency,
    fee: toApiAmount(collection.feeMinor),
    status: statusOfEvent[type],
    ...(type === 'collection.completed' && collection.transactionId !== null ? { transactionId: collection.transactionId } : {}),
    timestamp: occurredAt.toISOString(),
    ...(type === 'collection.requested' ? { phone: collection.phone, note: collection.note } : {}),
    ...(type === 'collection.failed' && collection.failureCode !== null ? { failureCode: collection.failureCode } : {}),
  });
  return createEventEnvelope({ type, data, producer: 'collections', eventId, occurredAt });
}

export function parseCollectionEventData(value: unknown): CollectionEventData {
  return collectionEventDataSchema.parse(value);
}
