import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'amqplib';
import { deadLetterNames } from '@pwa/bus';
import { createEventEnvelope, publicApi, type BulkEventData, type EventEnvelope } from '@pwa/contracts';
import { startWebhookReceiver, verifiesStandardSignature, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string } };
import { deliveriesOfEvent, startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

// Issue 20: bulk.completed becomes a webhook like a transaction's events, with the bulk's figures
// and its bulkId, and is listed in the events list and the delivery log. The events are published
// on the bus as the disbursements service would.
describe('webhooks service: bulk.completed', () => {
  let harness: WebhooksHarness;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    harness = await startWebhooksHarness();
  });

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.close()));
    await harness.stop();
  });

  const bulkId = (): string => `PKB-${Date.now()}-${randomBytes(12).toString('hex').toUpperCase()}`;

  function bulkCompletedEvent(partnerId: string, overrides: Partial<BulkEventData> = {}): EventEnvelope {
    const eventId = randomUUID();
    return createEventEnvelope({
      type: 'bulk.completed',
      eventId,
      producer: 'disbursements',
      data: {
        eventId,
        partnerId,
        event: 'bulk.completed',
        bulkId: bulkId(),
        externalId: `payroll-${randomUUID()}`,
        status: 'completed_with_failures',
        currency: 'USD',
        itemCount: 3,
        completedCount: 2,
        failedCount: 1,
        totalAmount: 75.5,
        totalFee: 0.9,
        completedAmount: 65.5,
        completedFee: 0.7,
        timestamp: new Date().toISOString(),
        ...overrides,
      },
    });
  }

  async function deadLetteredCount(): Promise<number> {
    const connection = await connect(serverUrls().amqp);
    try {
      const channel = await connection.createChannel();
      const { messageCount } = await channel.checkQueue(deadLetterNames(harness.config.BUS_EXCHANGE).queue);
      await channel.close();
      return messageCount;
    } finally {
      await connection.close();
    }
  }

  test('when bulk.completed is published, then it becomes one signed delivery with the documented payload, listed under its bulkId and in the events list', async () => {
    const endpoint = await startWebhookReceiver();
    receivers.push(endpoint);
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const withFailures = bulkCompletedEvent(partner.partnerId);
    const allPaid = bulkCompletedEvent(partner.partnerId, { status: 'completed', itemCount: 2, completedCount: 2, failedCount: 0, totalAmount: 65.5, totalFee: 0.7, currency: 'LRD' });
    const events = [withFailures, allPaid];
    for (const event of events) {
      await harness.publish(event);
      // One at a time, so the events list's order (by recording) is the publishing order.
      await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries.length === 1, 5_000);
    }

    const received = await endpoint.waitFor(2, 5_000);
    for (const event of events) await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'delivered', 3_000);

    const bodies = events.map((event) => {
      const request = received.find((candidate) => candidate.headers['webhook-id'] === event.eventId);
      expect(request && verifiesStandardSignature(request, partner.secret)).toBe(true);
      return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
    });
    const data = events.map((event) => event.data as BulkEventData);
    // The bulk event's data in its order, without eventId and partnerId.
    expect(Object.keys(bodies[0] ?? {})).toEqual(['event', 'bulkId', 'externalId', 'status', 'currency', 'itemCount', 'completedCount', 'failedCount', 'totalAmount', 'totalFee', 'completedAmount', 'completedFee', 'timestamp']);
    expect(bodies[0]).toEqual({
      event: 'bulk.completed',
      bulkId: data[0]?.bulkId,
      externalId: data[0]?.externalId,
      status: 'completed_with_failures',
      currency: 'USD',
      itemCount: 3,
      completedCount: 2,
      failedCount: 1,
      totalAmount: 75.5,
      totalFee: 0.9,
      completedAmount: 65.5,
      completedFee: 0.7,
      timestamp: data[0]?.timestamp,
    });
    expect(bodies[1]).toMatchObject({ bulkId: data[1]?.bulkId, status: 'completed', currency: 'LRD', itemCount: 2, completedCount: 2, failedCount: 0 });
    // Each body is what the OpenAPI document's webhooks section says bulk.completed's body is.
    for (const body of bodies) expect(publicApi.webhookPayloadSchemas['bulk.completed'].parse(body)).toEqual(body);

    const list = await harness.partnerGet(partner.partnerId, '/partner/v1/events?type=bulk.completed');
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((item: { eventId: string; type: string; deliveryStatus: string; payload: unknown }) => [item.eventId, item.type, item.deliveryStatus, item.payload])).toEqual([
      [withFailures.eventId, 'bulk.completed', 'delivered', bodies[0]],
      [allPaid.eventId, 'bulk.completed', 'delivered', bodies[1]],
    ]);
    const one = await harness.partnerGet(partner.partnerId, `/partner/v1/events/${allPaid.eventId}`);
    expect({ status: one.status, payload: one.body.data.payload }).toEqual({ status: 200, payload: bodies[1] });
    const deliveries = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?event=bulk.completed&referenceId=${data[0]?.bulkId ?? ''}`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data.deliveries.map((delivery: { eventId: string; referenceId: string; event: string }) => [delivery.eventId, delivery.referenceId, delivery.event])).toEqual([
      [withFailures.eventId, data[0]?.bulkId, 'bulk.completed'],
    ]);
  });

  test('when a bulk.completed breaks its contract (counts that do not add up), then it is dead-lettered and nothing is delivered', async () => {
    const endpoint = await startWebhookReceiver();
    receivers.push(endpoint);
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const deadLetteredBefore = await deadLetteredCount();
    const broken = bulkCompletedEvent(partner.partnerId, { completedCount: 3, failedCount: 1 });

    await harness.publish(broken);

    await waitUntil(async () => (await deadLetteredCount()) === deadLetteredBefore + 1, 5_000);
    expect((await deliveriesOfEvent(harness.pool, broken.eventId)).deliveries).toEqual([]);
    const list = await harness.partnerGet(partner.partnerId, '/partner/v1/events');
    expect(list.body.data.items).toEqual([]);
  });
});
