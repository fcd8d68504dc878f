import { randomUUID } from 'node:crypto';
import { startWebhookReceiver, verifiesServiceSignature, verifiesStandardSignature, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { deliveriesOfEvent, newSecret, startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

// Attempt deadline 1000 ms, retries after 200 ms each (±20 %), polled every 50 ms (see the harness).
describe('webhooks service: consumption, signed delivery and retries', () => {
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

  const statusOf = async (eventId: string): Promise<string | undefined> => (await deliveriesOfEvent(harness.pool, eventId)).deliveries[0]?.status;

  test("when a completed collection is published, then the partner gets the spec's payload and headers, and the signature verifies with its secret", async () => {
    const endpoint = await receiver();
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId);

    const [received] = await endpoint.waitFor(1, 5_000);
    await waitUntil(async () => (await statusOf(event.eventId)) === 'delivered', 3_000);

    const data = event.data as Record<string, unknown>;
    expect(received?.method).toBe('POST');
    expect(JSON.parse(received?.body ?? '')).toEqual({
      event: 'collection.completed',
      referenceId: data.referenceId,
      externalId: data.externalId,
      amount: 125.5,
      currency: 'USD',
      fee: 1.25,
      status: 'completed',
      transactionId: data.transactionId,
      timestamp: data.timestamp,
    });
    expect(received?.headers['content-type']).toBe('application/json');
    expect(received?.headers['x-service-partner-id']).toBe(partner.clientId);
    expect(received?.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(received?.headers['webhook-id']).toBe(event.eventId);
    expect(Math.abs(Number(received?.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    expect(received && verifiesServiceSignature(received, partner.secret)).toBe(true);
    expect(received && verifiesStandardSignature(received, partner.secret)).toBe(true);
    expect(received && verifiesServiceSignature(received, newSecret().secret)).toBe(false);
  });

  test('when the same event arrives twice, then one delivery is recorded and sent once', async () => {
    const endpoint = await receiver();
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId, 'collection.declined');
    await harness.publish(event);
    await harness.publish(event);

    await endpoint.waitFor(1, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 700));

    const { deliveries, attempts } = await deliveriesOfEvent(harness.pool, event.eventId);
    expect(deliveries).toHaveLength(1);
    expect(attempts).toHaveLength(1);
    expect(endpoint.received).toHaveLength(1);
  });

  test('when the receiver answers 500 then 200, then exactly two attempts are made and recorded', async () => {
    const endpoint = await receiver((_request, index) => (index === 0 ? 500 : 200));
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId);

    const received = await endpoint.waitFor(2, 5_000);
    await waitUntil(async () => (await statusOf(event.eventId)) === 'delivered', 3_000);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const { attempts, deliveries } = await deliveriesOfEvent(harness.pool, event.eventId);
    expect(endpoint.received).toHaveLength(2);
    expect(attempts.map((attempt) => [attempt.attempt_number, attempt.outcome, attempt.status_code, attempt.error])).toEqual([
      [1, 'failed', 500, 'HTTP 500'],
      [2, 'succeeded', 200, null],
    ]);
    expect(deliveries[0]).toMatchObject({ status: 'delivered', attempt_count: 2 });
    // Same event id and the same body on both; the retry came after the (jittered) 200 ms.
    expect(received[1]?.headers['webhook-id']).toBe(received[0]?.headers['webhook-id']);
    expect(received[1]?.body).toBe(received[0]?.body);
    expect((received[1]?.receivedAt ?? 0) - (received[0]?.receivedAt ?? 0)).toBeGreaterThanOrEqual(150);
  });

  test('when the receiver never answers, then the first attempt and 3 retries are each cut at the deadline and the delivery fails', async () => {
    const endpoint = await receiver(() => 'hang');
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId, 'collection.expired');

    await waitUntil(async () => (await statusOf(event.eventId)) === 'failed', 12_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const { attempts, deliveries } = await deliveriesOfEvent(harness.pool, event.eventId);
    expect(endpoint.received).toHaveLength(4);
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt).toMatchObject({ outcome: 'failed', status_code: null });
      expect(attempt.error).toContain('deadline of 1000 ms exceeded');
      expect(attempt.latency_ms).toBeGreaterThanOrEqual(950);
      expect(attempt.latency_ms).toBeLessThan(1_500);
    }
    expect(deliveries[0]).toMatchObject({ status: 'failed', attempt_count: 4, next_attempt_at: null });
    const metrics = await (await fetch(`${harness.baseUrl()}/metrics`)).text();
    expect(metrics).toMatch(/webhook_deliveries_total\{outcome="failed",service="webhooks"\} [1-9]/);
    expect(metrics).toMatch(/webhook_retries_total\{service="webhooks"\} [1-9]/);
    expect(metrics).toContain('webhook_attempt_duration_seconds_bucket');
    expect(metrics).toContain('webhook_queue_lag_seconds');
  });

  test('when the secret is rotated with an overlap, then deliveries verify with either secret', async () => {
    const endpoint = await receiver();
    const oldSecret = newSecret(new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000));
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url, secrets: [oldSecret] });
    const rotated = newSecret(new Date(Date.now() - 1_000));
    await harness.publishPartner({ partnerId: partner.partnerId, clientId: partner.clientId, webhookUrl: endpoint.url, secrets: [oldSecret, rotated], type: 'partner.webhook_secret_rotated' });
    await harness.publishCollectionEvent(partner.partnerId);

    const [received] = await endpoint.waitFor(1, 5_000);

    expect(received && verifiesStandardSignature(received, oldSecret.secret)).toBe(true);
    expect(received && verifiesStandardSignature(received, rotated.secret)).toBe(true);
    expect(received?.headers['webhook-signature']?.toString().split(' ')).toHaveLength(2);
    // The spec's single signature is made with the newest secret.
    expect(received && verifiesServiceSignature(received, rotated.secret)).toBe(true);
  });

  test('when the partner has no webhook URL, then the delivery is recorded as skipped and nothing is sent', async () => {
    const partner = await harness.publishPartner({ webhookUrl: null });
    const event = await harness.publishCollectionEvent(partner.partnerId);

    await waitUntil(async () => (await statusOf(event.eventId)) !== undefined, 5_000);

    expect((await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]).toMatchObject({ status: 'skipped', attempt_count: 0, last_error: 'no webhook URL registered' });
  });

  test('when a failed delivery is redelivered on request, then it is sent again and delivered; another partner cannot see or redeliver it', async () => {
    const endpoint = await receiver(() => 503);
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId);
    await waitUntil(async () => (await statusOf(event.eventId)) === 'failed', 8_000, 100);
    const listed = await harness.partnerGet(partner.partnerId, '/partner/v1/webhooks/deliveries?status=failed');
    const deliveryId: string = listed.body.data.deliveries[0].deliveryId;

    const stranger = randomUUID();
    const refused = await harness.partnerPost(stranger, `/partner/v1/webhooks/deliveries/${deliveryId}/redeliver`);
    expect(refused).toEqual({ status: 404, body: { success: false, code: 'PKC_6002', message: 'No such delivery' } });
    expect((await harness.partnerGet(stranger, '/partner/v1/webhooks/deliveries')).body.data.deliveries).toEqual([]);

    endpoint.respondWith(() => 200);
    const redelivered = await harness.partnerPost(partner.partnerId, `/partner/v1/webhooks/deliveries/${deliveryId}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.data).toMatchObject({ deliveryId, status: 'pending', attemptCount: 4 });
    await waitUntil(async () => (await statusOf(event.eventId)) === 'delivered', 5_000);

    const after = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?referenceId=${encodeURIComponent((event.data as { referenceId: string }).referenceId)}`);
    const [view] = after.body.data.deliveries;
    expect(view).toMatchObject({ deliveryId, status: 'delivered', attemptCount: 5, event: 'collection.completed' });
    expect(view.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([503, 503, 503, 503, 200]);
    expect(view.attempts[4]).toMatchObject({ attempt: 5, outcome: 'succeeded', error: null });
    expect(typeof view.attempts[4].latencyMs).toBe('number');
  });

  test('when every failed delivery since a time is redelivered, then each is sent again', async () => {
    const endpoint = await receiver(() => 500);
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const since = new Date(Date.now() - 1_000).toISOString();
    const events = [await harness.publishCollectionEvent(partner.partnerId), await harness.publishCollectionEvent(partner.partnerId, 'collection.declined')];
    await waitUntil(async () => (await Promise.all(events.map((event) => statusOf(event.eventId)))).every((status) => status === 'failed'), 8_000, 100);
    endpoint.respondWith(() => 200);

    const bad = await harness.partnerPost(partner.partnerId, '/partner/v1/webhooks/redeliver', { status: 'delivered', since });
    expect(bad.body).toMatchObject({ success: false, code: 'PKC_2008' });
    const response = await harness.partnerPost(partner.partnerId, '/partner/v1/webhooks/redeliver', { status: 'failed', since });

    expect(response.status).toBe(202);
    expect(response.body.data).toMatchObject({ redelivered: 2, more: false });
    await waitUntil(async () => (await Promise.all(events.map((event) => statusOf(event.eventId)))).every((status) => status === 'delivered'), 5_000);
  });

  test('when deliveries are listed, then filters apply, pages follow the cursor, and bad filters are PKC_2008', async () => {
    const endpoint = await receiver();
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    for (const type of ['collection.completed', 'collection.declined', 'collection.expired'] as const) await harness.publishCollectionEvent(partner.partnerId, type);
    await endpoint.waitFor(3, 5_000);

    const first = await harness.partnerGet(partner.partnerId, '/partner/v1/webhooks/deliveries?limit=2');
    const second = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?limit=2&cursor=${first.body.data.nextCursor}`);
    const declined = await harness.partnerGet(partner.partnerId, '/partner/v1/webhooks/deliveries?event=collection.declined');
    const future = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);

    expect(first.body.data.deliveries).toHaveLength(2);
    expect(second.body.data.deliveries).toHaveLength(1);
    expect(second.body.data.nextCursor).toBeNull();
    const ids = [...first.body.data.deliveries, ...second.body.data.deliveries].map((delivery: { deliveryId: string }) => delivery.deliveryId);
    expect(new Set(ids).size).toBe(3);
    expect(declined.body.data.deliveries.map((delivery: { event: string }) => delivery.event)).toEqual(['collection.declined']);
    expect(future.body.data.deliveries).toEqual([]);
    for (const query of ['status=lost', 'limit=0', 'limit=101', 'from=yesterday', 'cursor=nonsense', 'colour=blue', 'event=collection.requested']) {
      const response = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?${query}`);
      expect({ query, status: response.status, code: response.body.code }).toEqual({ query, status: 400, code: 'PKC_2008' });
    }
    const anonymous = await fetch(`${harness.baseUrl()}/partner/v1/webhooks/deliveries`);
    expect(anonymous.status).toBe(403);
  });
});
