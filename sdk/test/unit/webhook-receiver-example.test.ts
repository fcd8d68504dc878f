import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { webhookHeaders } from '../../../services/webhooks/src/domain/signing';
import type { WebhookEvent } from '../../src';
import { createWebhookReceiver } from '../../examples/webhook-receiver';

/** sdk/examples/webhook-receiver.ts run as a server, fed requests signed by the webhooks service's own code. */
const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({
  event: 'collection.declined',
  referenceId: 'PKC-1764000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E',
  externalId: 'order-1001',
  amount: 25.5,
  currency: 'USD',
  fee: 0.26,
  status: 'declined',
  timestamp: '2025-11-24T16:00:00.000Z',
});

describe('the webhook receiver example', () => {
  let server: Server;
  let url: string;
  const events: { event: WebhookEvent; webhookId: string }[] = [];

  beforeAll(async () => {
    server = createWebhookReceiver({ secret, onEvent: (event, webhookId) => void events.push({ event, webhookId }) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (payload: string, headers: Record<string, string>): Promise<Response> => fetch(url, { method: 'POST', headers, body: payload });
  const signed = (messageId: string, payload = body): Record<string, string> =>
    webhookHeaders({ body: payload, clientId: randomUUID(), messageId, timestampSeconds: Math.floor(Date.now() / 1000), secrets: [{ secretId: 'one', secret, validFrom: new Date(0), validUntil: null }] });

  test('when the service signs a delivery and it is sent twice, then the receiver answers 204 both times and handles the event once', async () => {
    const messageId = randomUUID();

    const first = await post(body, signed(messageId));
    const again = await post(body, signed(messageId));

    expect([first.status, again.status]).toEqual([204, 204]);
    expect(events.filter((seen) => seen.webhookId === messageId)).toEqual([{ event: JSON.parse(body), webhookId: messageId }]);
  });

  test('when the body is altered after signing, then the receiver answers 400 WEBHOOK_BAD_SIGNATURE and handles nothing', async () => {
    const messageId = randomUUID();

    const answer = await post(body.replace('25.5', '2550'), signed(messageId));

    expect({ status: answer.status, text: await answer.text() }).toEqual({ status: 400, text: 'WEBHOOK_BAD_SIGNATURE' });
    expect(events.filter((seen) => seen.webhookId === messageId)).toEqual([]);
  });
});
