import { verifyWebhook } from '../../../../sdk/src/webhooks';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test/support/webhook-receiver';
import { webhookPayloadSchema, webhookTestReferenceIdPattern } from '../../../../libs/contracts/src/public';
import { startWebhooksHarness, waitUntil, type WebhooksHarness } from './webhooks-harness';

/**
 * POST /partner/v1/webhooks/test (issue 28): a webhook.test delivery that the worker signs, sends
 * and records like any event's, listed under its own PKT-… id; refused when no URL is registered.
 */
describe('webhooks service: the test webhook a partner asks for', () => {
  let harness: WebhooksHarness;
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    harness = await startWebhooksHarness();
    endpoint = await startWebhookReceiver();
  });

  afterAll(async () => {
    await endpoint?.close();
    await harness?.stop();
  });

  test('when a partner with a URL asks for a test webhook, then its receiver gets a signed webhook.test that the SDK verifies, and the delivery is listed under its PKT id with the attempt', async () => {
    const partner = await harness.publishPartner({ webhookUrl: endpoint.url });
    const asked = await harness.partnerPost(partner.partnerId, '/partner/v1/webhooks/test');
    expect(asked.status).toBe(202);
    expect(asked.body.data).toMatchObject({ event: 'webhook.test', status: 'pending', attempts: [] });
    const referenceId = asked.body.data.referenceId as string;
    expect(referenceId).toMatch(webhookTestReferenceIdPattern);

    const [request] = await endpoint.waitFor(1, 10_000);
    const event = verifyWebhook(request?.body ?? '', request?.headers ?? {}, partner.secret);
    expect(event).toMatchObject({ event: 'webhook.test', referenceId });
    expect(webhookPayloadSchema('webhook.test').safeParse(JSON.parse(request?.body ?? '{}')).success).toBe(true);
    expect(request?.headers['webhook-id']).toBe(asked.body.data.eventId);

    await waitUntil(async () => (await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?referenceId=${referenceId}`)).body.data.deliveries[0]?.status === 'delivered', 10_000);
    const listed = await harness.partnerGet(partner.partnerId, `/partner/v1/webhooks/deliveries?referenceId=${referenceId}`);
    expect(listed.body.data.deliveries).toEqual([expect.objectContaining({ deliveryId: asked.body.data.deliveryId, event: 'webhook.test', attempts: [expect.objectContaining({ attempt: 1, outcome: 'succeeded', statusCode: 200 })] })]);
    const events = await harness.partnerGet(partner.partnerId, '/partner/v1/events?type=webhook.test');
    expect(events.body.data.items).toEqual([expect.objectContaining({ eventId: asked.body.data.eventId, type: 'webhook.test', payload: JSON.parse(request?.body ?? '{}') })]);
  });

  test('when a partner without a webhook URL, or one not known here, asks for a test webhook, then it is refused with 409 PKC_6004 naming what to do and nothing is recorded', async () => {
    const silent = await harness.publishPartner({ webhookUrl: null });
    for (const partnerId of [silent.partnerId, '6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b']) {
      const refused = await harness.partnerPost(partnerId, '/partner/v1/webhooks/test');
      expect(refused).toMatchObject({ status: 409, body: { success: false, code: 'PKC_6004', message: expect.stringContaining('webhook URL') } });
      expect((await harness.partnerGet(partnerId, '/partner/v1/webhooks/deliveries')).body.data.deliveries).toEqual([]);
    }
  });
});
