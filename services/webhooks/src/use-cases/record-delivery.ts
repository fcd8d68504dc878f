import { randomUUID } from 'node:crypto';
import { processOnce } from '@pwa/bus';
import type { BulkEvent, CollectionEvent, DisbursementEvent, PartnerEvent, RefundEvent } from '@pwa/contracts';
import { currentLogContext } from '@pwa/logging';
import { currentTraceparent } from '@pwa/telemetry';
import { deliveryReferenceIdOf, webhookBodyOf } from '../domain/webhook-payload';
import { insertDelivery } from '../store/delivery-store';
import { applyPartnerEvent, findPartner } from '../store/partner-store';
import type { WebhooksDependencies } from './dependencies';

export const transactionEventsConsumer = 'webhooks.transaction-events';
export const partnerEventsConsumer = 'webhooks.partner-events';

/**
 * Records the one delivery of a collection, disbursement, refund or bulk event, in the transaction that marks
 * the event processed; the bus acks only after it commits. A redelivered or duplicated event
 * finds its id in processed_events (and the UNIQUE event_id) and records nothing. A partner known
 * to have no webhook URL gets a skipped delivery; an unknown partner (its partner event not here
 * yet) gets a pending one, and the attempt looks the partner up again.
 */
export async function recordDelivery(dependencies: WebhooksDependencies, event: CollectionEvent | DisbursementEvent | RefundEvent | BulkEvent): Promise<void> {
  const { data } = event;
  const partnerId = data.partnerId.toLowerCase();
  let skipped = false;
  const outcome = await processOnce(dependencies.pool, transactionEventsConsumer, event.eventId, async (client) => {
    const partner = await findPartner(client, partnerId);
    skipped = partner !== undefined && partner.webhookUrl === null;
    await insertDelivery(client, {
      deliveryId: randomUUID(),
      eventId: event.eventId,
      partnerId,
      eventType: event.type,
      referenceId: deliveryReferenceIdOf(data),
      body: webhookBodyOf(data),
      status: skipped ? 'skipped' : 'pending',
      lastError: skipped ? 'no webhook URL registered' : null,
      // The consumer's context (its span, or the event's traceparent): the attempts continue from here.
      traceparent: currentTraceparent() ?? null,
      requestId: event.requestId ?? currentLogContext()?.requestId ?? null,
    });
  });
  if (outcome === 'processed' && skipped) dependencies.metrics.deliveryFinished('skipped');
  dependencies.logger.debug({ eventId: event.eventId, type: event.type, outcome }, 'transaction event consumed');
  if (outcome === 'processed') dependencies.wakeWorker();
}

/** Keeps the local copy of the partner (URL, client id, status, sealed secrets) current. */
export async function recordPartner(dependencies: WebhooksDependencies, event: PartnerEvent): Promise<void> {
  await processOnce(dependencies.pool, partnerEventsConsumer, event.eventId, async (client) => {
    const applied = await applyPartnerEvent(client, event);
    dependencies.logger.info({ partnerId: event.data.partnerId, type: event.type, applied }, 'partner event consumed');
  });
}
