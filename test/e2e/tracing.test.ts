import { randomUUID } from 'node:crypto';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { startOtlpReceiver, tracedStackOptions, type OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver';
import { accessTokenFor, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, fundPartner } from '../support/wallet-users';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * One partner request is one trace: the gateway, the services it calls (and they call), the
 * outbox relay, the broker hop and the webhook delivery attempt, exported over OTLP/HTTP by every
 * process (configured with the standard OTEL_* variables only) to a receiver in the test.
 */
const spanKindServer = 2;
const spanKindProducer = 4;
const spanKindConsumer = 5;

describe('traces across HTTP and RabbitMQ', () => {
  let receiver: OtlpReceiver;
  let webhookEndpoint: WebhookReceiver;
  let stack: Stack;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    webhookEndpoint = await startWebhookReceiver();
    stack = await startStack(
      tracedStackOptions(receiver, {
        logLevel: 'warn',
        serviceEnv: {
          disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
          webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100' },
        },
      }),
    );
  });

  afterAll(async () => {
    await stack?.stop();
    await webhookEndpoint?.close();
    await receiver?.close();
  });

  function traceOf(traceId: string): ReceivedSpan[] {
    return receiver.spans.filter((span) => span.traceId === traceId);
  }

  test('when a partner sends a disbursement, then the gateway, disbursements, quotes, wallet, the relay, the consumer and the webhook attempt share its trace in one connected tree', async () => {
    const onboarded = await stack.operator(['onboard', '--name', `Traced partner ${randomUUID().slice(0, 8)}`, '--permissions', 'disbursement', '--rate-limit', '100000', '--webhook-url', webhookEndpoint.url]);
    const partner = { partnerId: String(onboarded.partnerId), clientId: String(onboarded.clientId), clientSecret: String(onboarded.clientSecret) };
    await fundPartner(stack, partner.partnerId, 'USD', '1000.00');
    const user = await createWalletUser(stack, { currencies: ['USD'] });
    const token = await accessTokenFor(stack.client, partner);
    const quote = await disbursementQuote(stack.client, token, user, 12.5);

    const response = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `trace-${randomUUID()}` });
    expect(response.status).toBe(200);
    const [webhook] = await webhookEndpoint.waitFor(1, 20_000);

    const gatewaySpan = await pollUntil(
      () => Promise.resolve(receiver.spans.find((span) => span.service === 'gateway' && span.kind === spanKindServer && JSON.stringify(span.attributes).includes('/disbursement/transfer'))),
      (span) => span !== undefined,
      15_000,
    );
    if (!gatewaySpan) throw new Error(`no gateway server span for the transfer; spans: ${receiver.spans.map((span) => `${span.service}:${span.name}`).join(', ')}`);
    const traceId = gatewaySpan.traceId;
    const expectedServices = ['gateway', 'disbursements', 'quotes', 'wallet', 'webhooks'];
    const spans = await pollUntil(
      () => Promise.resolve(traceOf(traceId)),
      (found) =>
        expectedServices.every((service) => found.some((span) => span.service === service)) &&
        found.some((span) => span.name === 'webhook delivery attempt') &&
        found.some((span) => span.service === 'webhooks' && span.kind === 3),
      15_000,
    );

    const described = spans.map((span) => `${span.service}:${span.name}`);
    for (const service of expectedServices) expect(described.some((entry) => entry.startsWith(`${service}:`))).toBe(true);
    expect(spans).toContainEqual(expect.objectContaining({ service: 'disbursements', name: 'publish disbursement.completed', kind: spanKindProducer }));
    expect(spans).toContainEqual(expect.objectContaining({ service: 'webhooks', name: 'process disbursement.completed', kind: spanKindConsumer }));
    expect(spans).toContainEqual(expect.objectContaining({ service: 'webhooks', name: 'webhook delivery attempt' }));

    // One connected tree: the gateway's span is the only root, and every other parent is in the trace.
    const spanIds = new Set(spans.map((span) => span.spanId));
    const roots = spans.filter((span) => span.parentSpanId === '');
    expect(roots.map((span) => span.spanId)).toEqual([gatewaySpan.spanId]);
    const orphans = spans.filter((span) => span.parentSpanId !== '' && !spanIds.has(span.parentSpanId));
    expect(orphans.map((span) => `${span.service}:${span.name}`)).toEqual([]);

    // The chain across the broker: producer → consumer → delivery attempt → the POST to the partner.
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const consumer = spans.find((span) => span.name === 'process disbursement.completed');
    expect(byId.get(consumer?.parentSpanId ?? '')?.name).toBe('publish disbursement.completed');
    const attempt = spans.find((span) => span.name === 'webhook delivery attempt');
    expect(attempt?.parentSpanId).toBe(consumer?.spanId);
    // The partner's endpoint got the trace context of that same trace.
    expect(String(webhook?.headers.traceparent ?? '').split('-')[1]).toBe(traceId);
  });
});
