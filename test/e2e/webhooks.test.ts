import { createCollection } from '../support/collection-flow';
import { accessTokenFor, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, type WalletUser } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, verifiesStandardSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Webhooks end to end: auth issues the webhook secret at onboarding and publishes it sealed; a
 * collection approved through the gateway becomes a signed webhook at a real receiver; the
 * partner reads its delivery log and asks for redeliveries through the gateway; a rotation
 * overlap signs with both secrets.
 */
interface WebhookPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  token: string;
}

describe('webhooks', () => {
  let stack: Stack;
  let user: WalletUser;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    stack = await startStack({
      logLevel: 'warn',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '300,300,300' },
      },
    });
    user = await createWalletUser(stack, { tier: 'Gold', currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '10000');
  });

  afterAll(async () => {
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await stack?.stop();
  });

  async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(...args);
    receivers.push(started);
    return started;
  }

  async function onboardWithWebhook(webhookUrl: string): Promise<WebhookPartner> {
    const result = await stack.operator(['onboard', '--name', `Webhook partner ${Math.random().toString(36).slice(2, 8)}`, '--permissions', 'collection', '--rate-limit', '100000', '--webhook-url', webhookUrl]);
    const { partnerId, clientId, clientSecret, webhookSecret } = result as Record<string, string>;
    expect(webhookSecret).toMatch(/^whsec_/);
    const partner = { partnerId: partnerId ?? '', clientId: clientId ?? '', clientSecret: clientSecret ?? '', webhookSecret: webhookSecret ?? '' };
    return { ...partner, token: await accessTokenFor(stack.client, partner) };
  }

  /** A collection the sandbox approves through the gateway; resolves its referenceId. */
  async function approvedCollection(partner: WebhookPartner): Promise<string> {
    const referenceId = await createCollection(stack.client, partner.token, { phone: user.phone, amount: 10, currency: 'USD' });
    const approved = await stack.client.post(`/partner/v1/sandbox/collection/${referenceId}/approve`, {}, { bearer: partner.token });
    expect(approved.status).toBe(200);
    return referenceId;
  }

  const deliveriesOf = (partner: WebhookPartner, query = ''): Promise<any> =>
    stack.client.get(`/partner/v1/webhooks/deliveries${query}`, { bearer: partner.token }).then((response) => {
      expect(response.status).toBe(200);
      return response.body.data;
    });

  test('when a collection is approved, then the partner receives the signed webhook that verifies with the secret from onboarding', async () => {
    const endpoint = await receiver();
    const partner = await onboardWithWebhook(endpoint.url);

    const referenceId = await approvedCollection(partner);
    const [received] = await endpoint.waitFor(1, 15_000);

    expect(JSON.parse(received?.body ?? '')).toMatchObject({ event: 'collection.completed', referenceId, amount: 10, currency: 'USD', status: 'completed' });
    expect(JSON.parse(received?.body ?? '').transactionId).toMatch(/^TXN-[0-9A-F]+$/);
    expect(received?.headers['x-service-partner-id']).toBe(partner.clientId);
    expect(received && verifiesServiceSignature(received, partner.webhookSecret)).toBe(true);
    expect(received && verifiesStandardSignature(received, partner.webhookSecret)).toBe(true);
  });

  test('when the partner lists and redelivers through the gateway, then it sees its attempts and gets the event again; another partner sees none of it', async () => {
    const endpoint = await receiver((_request, index) => (index < 4 ? 500 : 200));
    const partner = await onboardWithWebhook(endpoint.url);
    const other = await onboardWithWebhook((await receiver()).url);
    const since = new Date(Date.now() - 1_000).toISOString();
    const referenceId = await approvedCollection(partner);

    const failed = await pollUntil(() => deliveriesOf(partner, '?status=failed'), (data) => data.deliveries.length === 1, 15_000);
    const [delivery] = failed.deliveries;
    expect(delivery).toMatchObject({ referenceId, event: 'collection.completed', status: 'failed', attemptCount: 4 });
    expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 500, 500, 500]);
    expect((await deliveriesOf(other)).deliveries).toEqual([]);
    const foreign = await stack.client.post(`/partner/v1/webhooks/deliveries/${delivery.deliveryId}/redeliver`, {}, { bearer: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, code: 'PKC_6002' });

    const redelivered = await stack.client.post(`/partner/v1/webhooks/deliveries/${delivery.deliveryId}/redeliver`, {}, { bearer: partner.token });
    expect(redelivered.status).toBe(202);
    await endpoint.waitFor(5, 10_000);
    const delivered = await pollUntil(() => deliveriesOf(partner, `?referenceId=${referenceId}`), (data) => data.deliveries[0]?.status === 'delivered', 5_000);
    expect(delivered.deliveries[0].attempts).toHaveLength(5);
    expect(endpoint.received[4]?.headers['webhook-id']).toBe(endpoint.received[0]?.headers['webhook-id']);

    const bulk = await stack.client.post('/partner/v1/webhooks/redeliver', { status: 'failed', since }, { bearer: partner.token });
    expect(bulk.status).toBe(202);
    expect(bulk.body.data).toMatchObject({ redelivered: 0 });
    const badFilter = await stack.client.get('/partner/v1/webhooks/deliveries?status=unknown', { bearer: partner.token });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.code).toBe('PKC_2008');
  });

  test('when the operator rotates the webhook secret with an overlap, then deliveries verify with the old and the new secret', async () => {
    const endpoint = await receiver();
    const partner = await onboardWithWebhook(endpoint.url);
    const rotated = await stack.operator(['rotate-webhook-secret', partner.clientId, '--overlap-hours', '1']);
    const newSecret = String(rotated.webhookSecret);
    // The rotation event travels through auth's outbox; wait until webhooks signs with two secrets.
    const received = await pollUntil(
      async () => {
        const count = endpoint.received.length;
        await approvedCollection(partner);
        return (await endpoint.waitFor(count + 1, 15_000))[count];
      },
      (request) => request?.headers['webhook-signature']?.toString().split(' ').length === 2,
      15_000,
      0,
    );

    expect(received && verifiesStandardSignature(received, partner.webhookSecret)).toBe(true);
    expect(received && verifiesStandardSignature(received, newSecret)).toBe(true);
    expect(received && verifiesServiceSignature(received, newSecret)).toBe(true);
  });
});
