import type { Bus } from '@pwa/bus';
import { isCollectionEventType, parseCollectionEvent, parseDisbursementEvent, parsePartnerEvent, partnerEventTypes } from '@pwa/contracts';
import type { WebhooksDependencies } from '../use-cases/dependencies';
import { recordDelivery, recordPartner } from '../use-cases/record-delivery';

/** The events that become webhooks: the spec's four plus the failures (see README). collection.requested is not one. */
export const deliveredEventTypes = [
  'collection.completed',
  'collection.declined',
  'collection.expired',
  'collection.failed',
  'disbursement.completed',
  'disbursement.failed',
] as const;

/**
 * Two durable queues of the service (every replica consumes from the same ones): partner events
 * feed the local partner copy; transaction events become deliveries. A message is acked after its
 * handler's transaction commits; one that does not parse is dead-lettered by the bus.
 */
export async function subscribeToEvents(bus: Bus, exchange: string, dependencies: WebhooksDependencies): Promise<void> {
  await bus.subscribe({
    queue: `${exchange}.webhooks.partner-events`,
    routingKeys: [...partnerEventTypes],
    kind: 'durable',
    handler: (envelope) => recordPartner(dependencies, parsePartnerEvent(envelope)),
  });
  await bus.subscribe({
    queue: `${exchange}.webhooks.transaction-events`,
    routingKeys: [...deliveredEventTypes],
    kind: 'durable',
    handler: (envelope) =>
      recordDelivery(dependencies, isCollectionEventType(envelope.type) ? parseCollectionEvent(envelope) : parseDisbursementEvent(envelope)),
  });
}
