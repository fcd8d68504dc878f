import { createHmac, timingSafeEqual } from 'node:crypto';
import { secretsValidAt, serviceSignature, standardWebhooksSignature, webhookHeaders, type SigningSecret } from '../../src/domain/signing';

describe('webhook signing', () => {
  test('when the Standard Webhooks example is signed, then the published signature comes out', () => {
    // From the Standard Webhooks specification (spec/standard-webhooks.md, "Signature scheme").
    const signature = standardWebhooksSignature('msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');

    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  test('when a body is signed the spec way, then it is sha256= and the hex HMAC of the raw body keyed with the secret as shown', () => {
    const body = '{"event":"collection.completed","referenceId":"PKC-1-AB"}';
    const expected = createHmac('sha256', 'whsec_c2VjcmV0').update(body).digest('hex');

    expect(serviceSignature(body, 'whsec_c2VjcmV0')).toBe(`sha256=${expected}`);
    expect(serviceSignature(body, 'whsec_c2VjcmV0')).toMatch(/^sha256=[0-9a-f]{64}$/);
    // What a receiver does: recompute and compare in constant time.
    const received = Buffer.from(serviceSignature(body, 'whsec_c2VjcmV0'));
    expect(timingSafeEqual(received, Buffer.from(`sha256=${expected}`))).toBe(true);
  });

  const at = (iso: string): Date => new Date(iso);
  const oldSecret: SigningSecret = { secretId: 'old', secret: 'whsec_b2xk', validFrom: at('2025-01-01T00:00:00Z'), validUntil: at('2025-06-02T00:00:00Z') };
  const newSecret: SigningSecret = { secretId: 'new', secret: 'whsec_bmV3', validFrom: at('2025-06-01T00:00:00Z'), validUntil: null };

  test('when two secrets overlap, then both sign, newest first, and X-Service-Signature uses the newest', () => {
    const valid = secretsValidAt([oldSecret, newSecret], at('2025-06-01T12:00:00Z'));
    const headers = webhookHeaders({ body: '{}', clientId: 'client-1', messageId: 'evt-1', timestampSeconds: 1_748_779_200, secrets: valid });

    expect(valid.map((secret) => secret.secretId)).toEqual(['new', 'old']);
    expect(Object.keys(headers)).toEqual(['Content-Type', 'X-Service-Partner-Id', 'X-Service-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']);
    expect(headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Service-Partner-Id': 'client-1', 'webhook-id': 'evt-1', 'webhook-timestamp': '1748779200' });
    expect(headers['X-Service-Signature']).toBe(serviceSignature('{}', 'whsec_bmV3'));
    expect(headers['webhook-signature']).toBe(
      `${standardWebhooksSignature('evt-1', 1_748_779_200, '{}', 'whsec_bmV3')} ${standardWebhooksSignature('evt-1', 1_748_779_200, '{}', 'whsec_b2xk')}`,
    );
  });

  test('when the old secret has expired or the new one has not started, then only the valid one signs', () => {
    expect(secretsValidAt([oldSecret, newSecret], at('2025-06-02T00:00:00Z')).map((secret) => secret.secretId)).toEqual(['new']);
    expect(secretsValidAt([oldSecret, newSecret], at('2025-05-31T23:59:59Z')).map((secret) => secret.secretId)).toEqual(['old']);
  });

  test('when no secret is valid, then there are no headers to send', () => {
    expect(() => webhookHeaders({ body: '{}', clientId: 'c', messageId: 'm', timestampSeconds: 1, secrets: [] })).toThrow('no valid webhook secret');
  });
});
