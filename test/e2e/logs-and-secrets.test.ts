import { randomUUID } from 'node:crypto';
import { actAsUser, createCollection } from '../support/collection-flow';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import type { JsonResponse } from '../support/https-client';
import { requestToken } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner } from '../support/wallet-users';
import { startWebhookReceiver, verifiesServiceSignature, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * What the logs of a whole flow say, at debug level with tracing off (the default): no secret or
 * token ever appears, every JSON line names its service, and the lines of one partner request
 * carry its request id and one trace id in every service it reached, across the bus too.
 */
interface LogLine {
  process: string;
  fields: Record<string, unknown>;
}

function parseLogs(text: string): { json: LogLine[]; other: string[] } {
  const json: LogLine[] = [];
  const other: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^\[([^\]]+)\] (.*)$/.exec(line);
    const body = match?.[2] ?? line;
    if (!body.startsWith('{')) {
      if (body.trim() !== '') other.push(line);
      continue;
    }
    try {
      json.push({ process: match?.[1] ?? '', fields: JSON.parse(body) as Record<string, unknown> });
    } catch {
      other.push(line);
    }
  }
  return { json, other };
}

describe('logs: correlation and secrets', () => {
  let stack: Stack;
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    endpoint = await startWebhookReceiver();
    stack = await startStack({
      logLevel: 'debug',
      serviceEnv: {
        collections: { OUTBOX_POLL_INTERVAL_MS: '100' },
        disbursements: { OUTBOX_POLL_INTERVAL_MS: '100' },
        webhooks: { WEBHOOK_POLL_INTERVAL_MS: '100' },
      },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await endpoint?.close();
  });

  test('when a partner runs a disbursement and a collection with webhooks, then no line holds a secret or token, and request lines carry request id and trace id in every service', async () => {
    const onboarded = await stack.operator(['onboard', '--name', `Logged partner ${randomUUID().slice(0, 8)}`, '--permissions', 'collection,disbursement', '--rate-limit', '100000', '--webhook-url', endpoint.url]);
    const clientSecret = String(onboarded.clientSecret);
    const webhookSecret = String(onboarded.webhookSecret);
    const partnerId = String(onboarded.partnerId);
    await fundPartner(stack, partnerId, 'USD', '1000.00');
    const user = await createWalletUser(stack, { currencies: ['USD'] });
    await creditWallet(stack, user, 'USD', '500');

    const responses: JsonResponse[] = [];
    const tokenResponse = await requestToken(stack.client, { clientId: String(onboarded.clientId), clientSecret });
    responses.push(tokenResponse);
    const token = String((tokenResponse.body as { access_token?: unknown }).access_token);
    const quote = await disbursementQuote(stack.client, token, user, 20);
    const transferred = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `logs-${randomUUID()}` });
    responses.push(transferred);
    expect(transferred.status).toBe(200);
    const referenceId = await createCollection(stack.client, token, { phone: user.phone, amount: 15, currency: 'USD' });
    const approved = await actAsUser(stack.internalUrls.collections, referenceId, 'approve');
    expect(approved.status).toBe(200);
    const webhooks = await endpoint.waitFor(2, 20_000);
    expect(webhooks.every((webhook) => verifiesServiceSignature(webhook, webhookSecret))).toBe(true);
    // Lines travel through the children's pipes; give the last ones (the attempts' records) a moment.
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const text = stack.logs();
    const [, , signature] = token.split('.');
    for (const secret of [clientSecret, token, signature ?? token, webhookSecret, webhookSecret.replace(/^whsec_/, '')]) {
      expect(text.includes(secret)).toBe(false);
    }

    const { json } = parseLogs(text);
    expect(json.length).toBeGreaterThan(0);
    expect(json.filter((line) => typeof line.fields.service !== 'string')).toEqual([]);

    // A line that knows its request knows its trace.
    expect(json.filter((line) => line.fields.requestId !== undefined && typeof line.fields.traceId !== 'string')).toEqual([]);
    // Lines about a message or a delivery are written while handling it: they carry a trace id.
    const messageLines = json.filter((line) => line.fields.eventId !== undefined || line.fields.deliveryId !== undefined);
    expect(messageLines.length).toBeGreaterThan(0);
    expect(messageLines.filter((line) => typeof line.fields.traceId !== 'string')).toEqual([]);

    // The transfer's request id leads to one trace id, in the gateway, in disbursements and in the
    // services behind it, and on to the webhook delivery of its event.
    const transferRequestId = String(transferred.headers['x-request-id']);
    const transferLines = json.filter((line) => line.fields.requestId === transferRequestId);
    const processes = new Set(transferLines.map((line) => line.process));
    for (const name of ['gateway', 'disbursements', 'webhooks']) expect(processes).toContain(name);
    expect(new Set(transferLines.map((line) => line.fields.traceId)).size).toBe(1);
    expect(transferLines.some((line) => line.fields.msg === 'webhook attempt recorded')).toBe(true);
    // The owner's line about the change names who made it: the API client the gateway admitted (x-partner-actor, decision 0058).
    const completed = transferLines.filter((line) => line.process === 'disbursements' && line.fields.msg === 'disbursement transfer completed');
    expect(completed.map((line) => [line.fields.partnerId, line.fields.actor])).toEqual([[partnerId, `client:${String(onboarded.clientId)}`]]);

    // The user's approval came straight to collections (no gateway): it got a request id and a trace of its own, carried to the webhook.
    const approvalLines = json.filter((line) => line.process === 'collections' && line.fields.requestId !== undefined);
    expect(approvalLines.length).toBeGreaterThan(0);
    expect(json.filter((line) => line.process === 'webhooks' && line.fields.msg === 'webhook attempt recorded' && typeof line.fields.requestId === 'string')).toHaveLength(2);
  });
});
