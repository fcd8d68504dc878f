import crypto from 'node:crypto';
import { webhookExampleBody, webhookExampleHeaders, webhookExampleSecret, webhookPayloadExamples } from '../../../libs/contracts/src/public';
import { webhookHeaders, type SigningSecret } from '../../../services/webhooks/src/domain/signing';
import { isWebhookVerificationError, verifyWebhook, type VerifyWebhookOptions, type WebhookVerificationError } from '../../src';

/**
 * verifyWebhook against what the webhooks service itself sends: the headers are made by
 * services/webhooks/src/domain/signing.ts (webhookHeaders, the function every delivery attempt
 * uses), not by a copy of it.
 */
const secret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
const nowSeconds = 1_764_000_000;
const now = (): number => nowSeconds * 1000;
const body = JSON.stringify({
  event: 'disbursement.completed',
  referenceId: 'PKD-1764000000000-4B7E19C2D05A83F6E1B2C3D4',
  externalId: 'payout-2002',
  amount: 5000,
  currency: 'LRD',
  fee: 100,
  status: 'completed',
  transactionId: 'TXN-8D41E6B09A2C7F35',
  timestamp: '2025-11-24T16:00:00.000Z',
});

function signingSecret(value: string, validFrom = new Date(0)): SigningSecret {
  return { secretId: crypto.randomUUID(), secret: value, validFrom, validUntil: null };
}

function signedBy(secrets: SigningSecret[], options: { body?: string; timestampSeconds?: number } = {}): Record<string, string> {
  return webhookHeaders({ body: options.body ?? body, clientId: crypto.randomUUID(), messageId: crypto.randomUUID(), timestampSeconds: options.timestampSeconds ?? nowSeconds, secrets });
}

function failureOf(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    if (isWebhookVerificationError(error)) return error;
    throw error;
  }
  throw new Error('expected verifyWebhook to throw');
}

describe('verifyWebhook with what the webhooks service sends', () => {
  test.each(['standard-webhooks', 'service-signature', 'both'] as const)('when a delivery signed by the service is checked with scheme %s, then it verifies and the parsed event comes back', (scheme) => {
    const headers = signedBy([signingSecret(secret)]);

    const event = verifyWebhook(body, headers, secret, { scheme, now });

    expect(event).toEqual(JSON.parse(body));
    expect(event.event).toBe('disbursement.completed');
  });

  test('when the body is a Buffer and the headers are lowercase (Node req.headers) or a fetch Headers, then it verifies', () => {
    const headers = signedBy([signingSecret(secret)]);
    const lowercase = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

    expect(verifyWebhook(Buffer.from(body), lowercase, secret, { scheme: 'both', now })).toMatchObject({ referenceId: expect.stringMatching(/^PKD-/) });
    expect(verifyWebhook(body, new Headers(headers), secret, { scheme: 'both', now })).toMatchObject({ referenceId: expect.stringMatching(/^PKD-/) });
  });

  test('when one byte of the body changes, then both schemes refuse it with WEBHOOK_BAD_SIGNATURE', () => {
    const headers = signedBy([signingSecret(secret)]);
    const tampered = body.replace('5000', '9000');

    expect(failureOf(() => verifyWebhook(tampered, headers, secret, { now })).code).toBe('WEBHOOK_BAD_SIGNATURE');
    expect(failureOf(() => verifyWebhook(tampered, headers, secret, { scheme: 'service-signature', now })).code).toBe('WEBHOOK_BAD_SIGNATURE');
  });

  test('when another secret is used, then it is refused', () => {
    const headers = signedBy([signingSecret(secret)]);
    const other = `whsec_${crypto.randomBytes(32).toString('base64')}`;

    expect(failureOf(() => verifyWebhook(body, headers, other, { scheme: 'both', now })).code).toBe('WEBHOOK_BAD_SIGNATURE');
  });

  test('when webhook-timestamp is 6 minutes old or ahead, then it is refused; 4 minutes passes; the tolerance is configurable', () => {
    const old = signedBy([signingSecret(secret)], { timestampSeconds: nowSeconds - 360 });
    const ahead = signedBy([signingSecret(secret)], { timestampSeconds: nowSeconds + 360 });
    const recent = signedBy([signingSecret(secret)], { timestampSeconds: nowSeconds - 240 });
    const options: VerifyWebhookOptions = { now };

    expect(failureOf(() => verifyWebhook(body, old, secret, options)).code).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(failureOf(() => verifyWebhook(body, ahead, secret, options)).code).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
    expect(verifyWebhook(body, recent, secret, options).event).toBe('disbursement.completed');
    expect(failureOf(() => verifyWebhook(body, recent, secret, { now, toleranceSeconds: 60 })).code).toBe('WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE');
  });

  test('when the timestamp is changed by an attacker to look fresh, then the Standard Webhooks signature no longer matches', () => {
    const old = signedBy([signingSecret(secret)], { timestampSeconds: nowSeconds - 3600 });

    expect(failureOf(() => verifyWebhook(body, { ...old, 'webhook-timestamp': String(nowSeconds) }, secret, { now })).code).toBe('WEBHOOK_BAD_SIGNATURE');
  });

  test('when the secret is being rotated, then a receiver with the old secret verifies webhook-signature (both sign) and one with either verifies given both', () => {
    const oldSecret = secret;
    const newSecret = `whsec_${crypto.randomBytes(32).toString('base64')}`;
    const headers = signedBy([signingSecret(newSecret, new Date(1000)), signingSecret(oldSecret, new Date(0))]);

    expect(verifyWebhook(body, headers, oldSecret, { now }).event).toBe('disbursement.completed');
    expect(verifyWebhook(body, headers, newSecret, { scheme: 'both', now }).event).toBe('disbursement.completed');
    expect(failureOf(() => verifyWebhook(body, headers, oldSecret, { scheme: 'service-signature', now })).code).toBe('WEBHOOK_BAD_SIGNATURE');
    expect(verifyWebhook(body, headers, [newSecret, oldSecret], { scheme: 'both', now }).event).toBe('disbursement.completed');
  });

  test('when a header is missing, then WEBHOOK_MISSING_HEADER names it', () => {
    const headers = Object.fromEntries(Object.entries(signedBy([signingSecret(secret)])).filter(([name]) => name !== 'webhook-signature'));

    const error = failureOf(() => verifyWebhook(body, headers, secret, { now }));

    expect({ code: error.code, message: error.message }).toEqual({ code: 'WEBHOOK_MISSING_HEADER', message: 'the webhook-signature header is missing' });
  });

  test('when a signed body has an event type the SDK does not know, then WEBHOOK_UNKNOWN_EVENT carries the verified body', () => {
    const unknown = JSON.stringify({ event: 'collection.reversed', referenceId: 'PKC-1-AB' });
    const headers = signedBy([signingSecret(secret)], { body: unknown });

    const error = failureOf(() => verifyWebhook(unknown, headers, secret, { now }));

    expect({ code: error.code, body: error.body }).toEqual({ code: 'WEBHOOK_UNKNOWN_EVENT', body: JSON.parse(unknown) });
  });

  test('when a signed disbursement.reversed arrives, then it verifies and is typed with its reversal (not an unknown event)', () => {
    const reversedBody = JSON.stringify(webhookPayloadExamples['disbursement.reversed']);
    const event = verifyWebhook(reversedBody, signedBy([signingSecret(secret)], { body: reversedBody }), secret, { now });

    expect(event.event === 'disbursement.reversed' ? { status: event.status, reversal: event.reversal } : undefined).toEqual({
      status: 'completed',
      reversal: { transactionId: 'TXN-6A1F0C3E9B27D548', amount: 5000, currency: 'LRD', reversedAt: '2024-06-11T09:02:41.207Z' },
    });
  });

  test('when a signed bulk.completed arrives, then it verifies and is typed by its bulkId; one without a bulkId is a bad payload', () => {
    const bulkBody = JSON.stringify(webhookPayloadExamples['bulk.completed']);
    const event = verifyWebhook(bulkBody, signedBy([signingSecret(secret)], { body: bulkBody }), secret, { now });

    expect(event.event === 'bulk.completed' ? { bulkId: event.bulkId, status: event.status } : undefined).toEqual({ bulkId: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D', status: 'completed_with_failures' });
    const withoutBulkId = JSON.stringify({ event: 'bulk.completed', referenceId: 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D' });
    expect(failureOf(() => verifyWebhook(withoutBulkId, signedBy([signingSecret(secret)], { body: withoutBulkId }), secret, { now })).code).toBe('WEBHOOK_BAD_PAYLOAD');
  });

  test('when the example of the document is checked at its timestamp, then it verifies with the example secret under both schemes', () => {
    const event = verifyWebhook(webhookExampleBody, webhookExampleHeaders, webhookExampleSecret, { scheme: 'both', now: () => Number(webhookExampleHeaders['webhook-timestamp']) * 1000 });

    expect(event).toMatchObject({ event: 'collection.completed', status: 'completed' });
  });

  test('when signatures are compared, then crypto.timingSafeEqual does it', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      verifyWebhook(body, signedBy([signingSecret(secret)]), secret, { scheme: 'both', now });
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });
});
