import { randomBytes, randomUUID } from 'node:crypto';
import { createEventEnvelope, publicApi, type EventEnvelope } from '@pwa/contracts';
import { startWebhookReceiver, verifiesStandardSignature, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { deliveriesOfEvent, startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

// Issue 19: collection.cancelled and the refunds' two events become webhooks like the others. The
// events are published on the bus as the collections service would, and read back as the partner
// receives them and through the events list.
describe('webhooks service: cancelled collections and refunds', () => {
  let harness: WebhooksHarness;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    harness = await startWebhooksHarness();
  });

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.close()));
    await harness.stop();
  });

  const hex = (bytes: number): string => randomBytes(bytes).toString('hex').toUpperCase();
  const collectionReferenceId = (): string => `PKC-${Date.now()}-${hex(16)}`;

  function cancelledEvent(partnerId: string): EventEnvelope {
    const eventId = randomUUID();
    return createEventEnvelope({
      type: 'collection.cancelled',
      eventId,
      producer: 'collections',
      data: {
        eventId,
        event: 'collection.cancelled',
        partnerId,
        referenceId: collectionReferenceId(),
        externalId: `ext-${randomUUID()}`,
        amount: 40,
        currency: 'LRD',
        fee: 0.4,
        status: 'cancelled',
        timestamp: new Date().toISOString(),
      },
    });
  }

  function refundEvent(partnerId: string, type: 'refund.completed' | 'refund.failed', collection: string): EventEnvelope {
    const eventId = randomUUID();
    const completed = type === 'refund.completed';
    return createEventEnvelope({
      type,
      eventId,
      producer: 'collections',
      data: {
        eventId,
        partnerId,
        event: type,
        referenceId: `PKR-${Date.now()}-${hex(12)}`,
        collectionReferenceId: collection,
        externalId: `refund-${randomUUID()}`,
        amount: 12.34,
        currency: 'USD',
        fee: 0,
        status: completed ? 'completed' : 'failed',
        ...(completed
          ? { transactionId: `TXN-${hex(8)}` }
          : { failureCode: 'PKC_3002', failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' } }),
        timestamp: new Date().toISOString(),
      },
    });
  }

  test('when collection.cancelled, refund.completed and refund.failed are published, then each becomes one signed delivery with the documented payload, and the events list shows them', async () => {
    const endpoint = await startWebhookReceiver();
    receivers.push(endpoint);
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const collection = collectionReferenceId();
    const events = [cancelledEvent(partner.partnerId), refundEvent(partner.partnerId, 'refund.completed', collection), refundEvent(partner.partnerId, 'refund.failed', collection)];
    for (const event of events) {
      await harness.publish(event);
      // One at a time, so the events list's order (by recording) is the publishing order.
      await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries.length === 1, 5_000);
    }

    await endpoint.waitFor(3, 5_000);
    // Under load an attempt can time out and be sent again: wait for each event's recorded delivery, then read every request that arrived.
    for (const event of events) await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'delivered', 10_000);
    const received = endpoint.received;

    const bodies = events.map((event) => {
      const request = received.find((candidate) => candidate.headers['webhook-id'] === event.eventId);
      expect(request && verifiesStandardSignature(request, partner.secret)).toBe(true);
      return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
    });
    const [cancelled, completed, failed] = events.map((event) => event.data as Record<string, unknown>);
    expect(bodies[0]).toEqual({
      event: 'collection.cancelled',
      referenceId: cancelled?.referenceId,
      externalId: cancelled?.externalId,
      amount: 40,
      currency: 'LRD',
      fee: 0.4,
      status: 'cancelled',
      timestamp: cancelled?.timestamp,
    });
    // The spec's fields in the spec's order, then the additions: failureReason, collectionReferenceId.
    expect(Object.keys(bodies[1] ?? {})).toEqual(['event', 'referenceId', 'externalId', 'amount', 'currency', 'fee', 'status', 'transactionId', 'timestamp', 'collectionReferenceId']);
    expect(bodies[1]).toEqual({
      event: 'refund.completed',
      referenceId: completed?.referenceId,
      externalId: completed?.externalId,
      amount: 12.34,
      currency: 'USD',
      fee: 0,
      status: 'completed',
      transactionId: completed?.transactionId,
      timestamp: completed?.timestamp,
      collectionReferenceId: collection,
    });
    expect(bodies[2]).toEqual({
      event: 'refund.failed',
      referenceId: failed?.referenceId,
      externalId: failed?.externalId,
      amount: 12.34,
      currency: 'USD',
      fee: 0,
      status: 'failed',
      timestamp: failed?.timestamp,
      failureReason: { code: 'PKC_3002', message: 'User account not active (suspended or closed)' },
      collectionReferenceId: collection,
    });
    // Each body is what the OpenAPI document's webhooks section says that event's body is.
    expect(publicApi.webhookPayloadSchemas['collection.cancelled'].parse(bodies[0])).toEqual(bodies[0]);
    expect(publicApi.webhookPayloadSchemas['refund.completed'].parse(bodies[1])).toEqual(bodies[1]);
    expect(publicApi.webhookPayloadSchemas['refund.failed'].parse(bodies[2])).toEqual(bodies[2]);

    const list = await harness.partnerGet(partner.partnerId, '/partner/v1/events');
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((item: { type: string; payload: unknown }) => [item.type, item.payload])).toEqual([
      ['collection.cancelled', bodies[0]],
      ['refund.completed', bodies[1]],
      ['refund.failed', bodies[2]],
    ]);
    const refundsOnly = await harness.partnerGet(partner.partnerId, '/partner/v1/events?type=refund.completed');
    expect(refundsOnly.body.data.items.map((item: { eventId: string }) => item.eventId)).toEqual([events[1]?.eventId]);
    const deliveries = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?event=refund.failed`);
    expect(deliveries.body.data.deliveries.map((delivery: { referenceId: string }) => delivery.referenceId)).toEqual([failed?.referenceId]);
  });
});
