import { randomUUID } from 'node:crypto';
import {
  collectionEventDataSchema,
  collectionStatusOfEvent,
  createEventEnvelope,
  type CollectionEventData,
  type CollectionEventType,
  type EventEnvelope,
} from '@pwa/contracts';
import { toApiAmount } from '@pwa/money';
import type { Collection } from '../domain/collection';
import { failureReasonOf } from '../domain/failure-reason';

/**
 * Builds a valid envelope for a collection that has just reached the event's status. The contract
 * (types, data schema, version) is `@pwa/contracts` (collection-events); this only maps the domain
 * row onto it, and refuses to build an event that would not parse.
 */
export function collectionEvent(type: CollectionEventType, collection: Collection, occurredAt: Date = new Date()): EventEnvelope<CollectionEventData> {
  const eventId = randomUUID();
  const failureReason = type === 'collection.failed' ? failureReasonOf(collection) : undefined;
  const data = collectionEventDataSchema.parse({
    eventId,
    event: type,
    partnerId: collection.partnerId,
    referenceId: collection.referenceId,
    externalId: collection.externalId,
    amount: toApiAmount(collection.amountMinor),
    currency: collection.currency,
    fee: toApiAmount(collection.feeMinor),
    status: collectionStatusOfEvent[type],
    ...(type === 'collection.completed' && collection.transactionId !== null ? { transactionId: collection.transactionId } : {}),
    timestamp: occurredAt.toISOString(),
    ...(type === 'collection.requested' ? { phone: collection.phone, note: collection.note } : {}),
    ...(failureReason === undefined ? {} : { failureCode: failureReason.code, failureReason }),
  });
  return createEventEnvelope({ type, data, producer: 'collections', eventId, occurredAt });
}
