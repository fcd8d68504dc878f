import { randomUUID } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { pruneExpiredEvents } from '../../src/use-cases/partner-events';
import { deliveriesOfEvent, startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

// The event log is read from the deliveries (decision 0051): these tests publish events on the bus
// as collections would and read them back through the partner routes the gateway forwards to.
describe('webhooks service: the partner event log', () => {
  let harness: WebhooksHarness;
  const receivers: WebhookReceiver[] = [];
  const receiver = async (...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> => {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  };

  beforeAll(async () => {
    harness = await startWebhooksHarness();
  });

  afterAll(async () => {
    await Promise.all(receivers.map((started) => started.close()));
    await harness.stop();
  });

  const recorded = async (eventId: string): Promise<void> => waitUntil(async () => (await deliveriesOfEvent(harness.pool, eventId)).deliveries.length === 1, 5_000);

  test('when events were delivered, then the list has them oldest first with the body sent, its webhook-id and its status, and one event reads by its id', async () => {
    const endpoint = await receiver();
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const first = await harness.publishCollectionEvent(partner.partnerId, 'collection.completed');
    await recorded(first.eventId);
    const second = await harness.publishCollectionEvent(partner.partnerId, 'collection.declined');
    const received = await endpoint.waitFor(2, 5_000);
    // The receiver answers before the service records the outcome: wait until both deliveries say so.
    for (const event of [first, second]) {
      await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'delivered', 10_000);
    }

    const list = await harness.partnerGet(partner.partnerId, '/partner/v1/events');
    expect(list.status).toBe(200);
    expect(list.body.data.hasMore).toBe(false);
    expect(list.body.data.items.map((item: any) => item.eventId)).toEqual([first.eventId, second.eventId]);
    for (const item of list.body.data.items) {
      const delivered = received.find((request) => request.headers['webhook-id'] === item.eventId);
      expect(item.payload).toEqual(JSON.parse(delivered?.body ?? 'null'));
      expect(item.deliveryStatus).toBe('delivered');
    }
    const one = await harness.partnerGet(partner.partnerId, `/partner/v1/events/${second.eventId}`);
    expect(one).toEqual({ status: 200, body: { success: true, data: list.body.data.items[1] } });
  });

  test('when the partner has no webhook URL or its receiver fails, then the events are listed all the same (skipped, failed)', async () => {
    const silent = await harness.publishPartner({ webhookUrl: null });
    const skipped = await harness.publishCollectionEvent(silent.partnerId, 'collection.expired');
    await recorded(skipped.eventId);
    const list = await harness.partnerGet(silent.partnerId, '/partner/v1/events');
    expect(list.body.data.items).toEqual([expect.objectContaining({ eventId: skipped.eventId, type: 'collection.expired', deliveryStatus: 'skipped' })]);

    const endpoint = await receiver(() => 500);
    const failing = await harness.publishPartner({ webhookUrl: endpoint.url });
    const failed = await harness.publishCollectionEvent(failing.partnerId);
    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, failed.eventId)).deliveries[0]?.status === 'failed', 10_000);
    const failedList = await harness.partnerGet(failing.partnerId, '/partner/v1/events');
    expect(failedList.body.data.items).toEqual([expect.objectContaining({ eventId: failed.eventId, deliveryStatus: 'failed' })]);
  });

  test('when filtered by type and since and paged one at a time, then each page continues the last and another partner never sees them', async () => {
    const partner = await harness.publishPartner({ webhookUrl: null });
    const events = [];
    for (const type of ['collection.completed', 'collection.declined', 'collection.completed', 'collection.completed'] as const) {
      const event = await harness.publishCollectionEvent(partner.partnerId, type);
      await recorded(event.eventId);
      events.push(event);
    }
    const completed = events.filter((event) => event.type === 'collection.completed').map((event) => event.eventId);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const query: string = `type=collection.completed&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
      const answer = await harness.partnerGet(partner.partnerId, `/partner/v1/events?${query}`);
      expect(answer.status).toBe(200);
      seen.push(...answer.body.data.items.map((item: any) => item.eventId));
      cursor = answer.body.data.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(completed);

    const createdAt = (await deliveriesOfEvent(harness.pool, events[2]?.eventId ?? '')).deliveries[0]?.created_at as Date;
    const since = await harness.partnerGet(partner.partnerId, `/partner/v1/events?since=${encodeURIComponent(createdAt.toISOString())}`);
    expect(since.body.data.items.map((item: any) => item.eventId)).toEqual([events[2]?.eventId, events[3]?.eventId]);

    const stranger = randomUUID();
    expect((await harness.partnerGet(stranger, '/partner/v1/events')).body.data.items).toEqual([]);
    expect((await harness.partnerGet(stranger, `/partner/v1/events/${events[0]?.eventId}`)).body.code).toBe('PKC_6002');
    const first = await harness.partnerGet(partner.partnerId, '/partner/v1/events?limit=1');
    const borrowed = await harness.partnerGet(stranger, `/partner/v1/events?limit=1&cursor=${first.body.data.nextCursor}`);
    expect([borrowed.status, borrowed.body.code, borrowed.body.message]).toEqual([400, 'PKC_2008', expect.stringContaining('cursor')]);
  });

  test.each([
    ['type=payout.done', 'type'],
    ['since=yesterday', 'since'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['order=desc', 'order'],
  ])('when the query is %s, then 400 PKC_2008 naming %s', async (query, name) => {
    const answer = await harness.partnerGet(randomUUID(), `/partner/v1/events?${query}`);
    expect([answer.status, answer.body.code, answer.body.message]).toEqual([400, 'PKC_2008', expect.stringContaining(name)]);
  });

  test.each(['not-a-uuid', randomUUID()])('when the event id is %s (unknown), then 404 PKC_6002', async (eventId) => {
    const answer = await harness.partnerGet(randomUUID(), `/partner/v1/events/${eventId}`);
    expect([answer.status, answer.body.code]).toEqual([404, 'PKC_6002']);
  });

  test('when an event is older than 30 days, then it is no longer listed nor read, and the pruning deletes it (a settled one) with its attempts', async () => {
    const partner = await harness.publishPartner({ webhookUrl: null });
    const old = await harness.publishCollectionEvent(partner.partnerId);
    const recent = await harness.publishCollectionEvent(partner.partnerId);
    await recorded(old.eventId);
    await recorded(recent.eventId);
    await harness.pool.query(`UPDATE deliveries SET created_at = now() - interval '31 days' WHERE event_id = $1`, [old.eventId]);

    const list = await harness.partnerGet(partner.partnerId, '/partner/v1/events');
    expect(list.body.data.items.map((item: any) => item.eventId)).toEqual([recent.eventId]);
    expect((await harness.partnerGet(partner.partnerId, `/partner/v1/events/${old.eventId}`)).status).toBe(404);

    const logger = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
    const pruned = await pruneExpiredEvents({ pool: harness.pool, logger } as unknown as Parameters<typeof pruneExpiredEvents>[0]);
    expect(pruned).toBeGreaterThanOrEqual(1);
    expect((await deliveriesOfEvent(harness.pool, old.eventId)).deliveries).toEqual([]);
    expect((await deliveriesOfEvent(harness.pool, recent.eventId)).deliveries).toHaveLength(1);
  });
});
