import { randomUUID } from 'node:crypto';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { deliveriesOfEvent, startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

describe('webhooks service: a restart between attempts', () => {
  let harness: WebhooksHarness;
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    // One retry 2 s after the first failure, without jitter, so its time can be checked.
    harness = await startWebhooksHarness({ WEBHOOK_RETRY_DELAYS_MS: '2000', WEBHOOK_RETRY_JITTER_RATIO: '0' });
    // The second test sends a row it made up ('{}' as the body), which no webhook of the document describes.
    endpoint = await startWebhookReceiver((_request, index) => (index === 0 ? 500 : 200), { checkAgainstContract: false });
  });

  afterAll(async () => {
    await endpoint.close();
    await harness.stop();
  });

  test('when the service restarts between two attempts, then the next attempt is still sent, and not before it is due', async () => {
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const event = await harness.publishCollectionEvent(partner.partnerId);
    const [first] = await endpoint.waitFor(1, 5_000);
    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'pending', 2_000);

    await harness.stopService();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await harness.startService();
    const [, second] = await endpoint.waitFor(2, 6_000);

    const gapMs = (second?.receivedAt ?? 0) - (first?.receivedAt ?? 0);
    expect(gapMs).toBeGreaterThanOrEqual(1_950);
    expect(gapMs).toBeLessThan(3_000);
    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'delivered', 2_000);
    expect(endpoint.received).toHaveLength(2);
  });

  test('when a replica stopped mid-attempt (its lease expired), then the attempt counts as failed and the retry follows the schedule', async () => {
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const deliveryId = randomUUID();
    const eventId = randomUUID();
    const sentBefore = endpoint.received.length;
    // What a replica killed while sending leaves behind: a claimed row whose lease has run out.
    await harness.pool.query(
      `INSERT INTO deliveries (delivery_id, event_id, partner_id, event_type, reference_id, body, status, attempt_count, cycle_attempt_count,
         lease_token, leased_at, lease_expires_at)
       VALUES ($1, $2, $3, 'collection.completed', 'PKC-1-AB', '{}', 'delivering', 1, 1, gen_random_uuid(), now() - interval '20 seconds', now() - interval '1 second')`,
      [deliveryId, eventId, partner.partnerId],
    );

    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, eventId)).attempts.length === 1, 3_000);
    const recovered = await deliveriesOfEvent(harness.pool, eventId);
    expect(recovered.attempts[0]).toMatchObject({ attempt_number: 1, outcome: 'failed', latency_ms: null });
    expect(recovered.attempts[0].error).toContain('outcome unknown');
    expect(recovered.deliveries[0].status).toBe('pending');
    expect(new Date(recovered.deliveries[0].next_attempt_at).getTime() - Date.now()).toBeGreaterThan(1_500);
    expect(endpoint.received.length).toBe(sentBefore);

    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, eventId)).deliveries[0]?.status === 'delivered', 5_000);
  });
});

describe('webhooks service in production: target safety', () => {
  let harness: WebhooksHarness;
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    harness = await startWebhooksHarness({ ENVIRONMENT: 'production', WEBHOOK_RETRY_DELAYS_MS: '50', WEBHOOK_RETRY_JITTER_RATIO: '0' });
    endpoint = await startWebhookReceiver();
  });

  afterAll(async () => {
    await endpoint.close();
    await harness.stop();
  });

  test.each([
    ['plain http', (port: number) => `http://127.0.0.1:${port}/hooks`, 'target refused: https required'],
    ['a loopback IPv4 literal', (port: number) => `https://127.0.0.1:${port}/hooks`, 'target refused: loopback address'],
    ['a loopback IPv6 literal', (port: number) => `https://[::1]:${port}/hooks`, 'target refused: loopback address'],
    ['a name resolving to loopback (checked at connect time)', (port: number) => `https://localhost:${port}/hooks`, 'target refused: loopback address'],
    ['a private address', (port: number) => `https://10.0.0.1:${port}/hooks`, 'target refused: private address'],
    ['the link-local metadata address', (port: number) => `https://169.254.169.254:${port}/latest`, 'target refused: link-local address'],
    ['an IPv4-mapped private address', (port: number) => `https://[::ffff:192.168.0.1]:${port}/hooks`, 'target refused: private address'],
  ])('when the webhook URL is %s, then nothing is sent and the attempts record why', async (_name, urlOf, expectedError) => {
    const partner = await harness.publishPartner({ webhookUrl: urlOf(endpoint.port) });
    const event = await harness.publishCollectionEvent(partner.partnerId);

    await waitUntil(async () => (await deliveriesOfEvent(harness.pool, event.eventId)).deliveries[0]?.status === 'failed', 5_000);

    const { attempts } = await deliveriesOfEvent(harness.pool, event.eventId);
    expect(attempts).toHaveLength(2);
    for (const attempt of attempts) expect(attempt).toMatchObject({ outcome: 'failed', status_code: null, error: expectedError });
    expect(endpoint.received).toHaveLength(0);
  });

  test('when production is configured to allow private targets, then the service refuses to start', async () => {
    await expect(harness.restart({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' })).rejects.toThrow('WEBHOOK_ALLOW_PRIVATE_TARGETS');
    await harness.startService();
  });
});
