import { serviceQueueName, type Bus } from '@pwa/bus';
import {
  isBulkEventType,
  isCollectionEventType,
  isRefundEventType,
  parseBulkEvent,
  parseCollectionEvent,
  parseDisbursementEvent,
  parsePartnerEvent,
  parseRefundEvent,
  partnerEventTypes,
  type BulkEvent,
  type CollectionEvent,
  type DisbursementEvent,
  type EventEnvelope,
  type RefundEvent,
} from '@pwa/contracts';
import type { WebhooksDependencies } from '../use-cases/dependencies';
import { recordDelivery, recordPartner } from '../use-cases/record-delivery';

/**
 * The events that become webhooks: the spec's four plus the failures (see README), and (issue 19)
 * collection.cancelled and the refunds' two, (issue 20) bulk.completed, and (issue 27, decision
 * 0063) disbursement.reversed. collection.requested is not one.
 */
export const deliveredEventTypes = [
  'collection.completed',
  'collection.declined',
  'collection.expired',
  'collection.failed',
  'collection.cancelled',
  'disbursement.completed',
  'disbursement.failed',
  'disbursement.reversed',
  'refund.completed',
  'refund.failed',
  'bulk.completed',
] as const;

export type DeliveredEvent = CollectionEvent | DisbursementEvent | RefundEvent | BulkEvent;

/** Narrows a delivered event by its family's contract; one that does not parse throws (the bus dead-letters it). */
export function parseDeliveredEvent(envelope: EventEnvelope): DeliveredEvent {
  if (isCollectionEventType(envelope.type)) return parseCollectionEvent(envelope);
  if (isRefundEventType(envelope.type)) return parseRefundEvent(envelope);
  if (isBulkEventType(envelope.type)) return parseBulkEvent(envelope);
  return parseDisbursementEvent(envelope);
}

/**
 * Two durable queues of the service (every replica consumes from the same ones): partner events
 * feed the local partner copy; transaction events become deliveries. A message is acked after its
 * handler's transaction commits; one that does not parse is dead-lettered by the bus.
 */
export async function subscribeToEvents(bus: Bus, exchange: string, dependencies: WebhooksDependencies): Promise<void> {
  await bus.subscribe({
    queue: serviceQueueName(exchange, 'webhooks.partner-events'),
    routingKeys: [...partnerEventTypes],
    kind: 'durable',
    handler: (envelope) => recordPartner(dependencies, parsePartnerEvent(envelope)),
  });
  await bus.subscribe({
    queue: serviceQueueName(exchange, 'webhooks.transaction-events'),
    routingKeys: [...deliveredEventTypes],
    kind: 'durable',
    handler: (envelope) => recordDelivery(dependencies, parseDeliveredEvent(envelope)),
  });
}
