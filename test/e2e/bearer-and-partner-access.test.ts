import { randomUUID } from 'node:crypto';
import type { JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner, pollUntil } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { decodeToken, foreignKeyToken, hmacWithPublicKeyToken, publishedPublicKeyPem, tamperedToken, unsignedToken } from '../support/tokens';

/** Bearer verification, partner status and permissions at the gateway, for tokens good and bad. */
describe('bearer token and partner access', () => {
  let stack: Stack;
  let token: string;

  beforeAll(async () => {
    stack = await startStack();
    token = await accessTokenFor(stack.client, await onboardPartner(stack));
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const balanceWith = (headers: Record<string, string>): Promise<JsonResponse> => stack.client.get('/partner/v1/balance', { headers });

  /** The envelope, and the RFC 6750 challenge on every 401 (none on a 403). */
  function expectError(response: JsonResponse, status: number, code: string, challenge: string | RegExp = /^Bearer realm="partner-wallet-api"/): void {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: { success: false, code, message: expect.any(String) } });
    if (status === 401) expect(response.headers['www-authenticate']).toEqual(typeof challenge === 'string' ? challenge : expect.stringMatching(challenge));
    else expect(response.headers['www-authenticate']).toBeUndefined();
  }

  const bearerChallenge = 'Bearer realm="partner-wallet-api"';
  const invalidRequestChallenge = /^Bearer realm="partner-wallet-api", error="invalid_request", error_description="[^"\\]+"$/;
  const invalidTokenChallenge = /^Bearer realm="partner-wallet-api", error="invalid_token", error_description="[^"\\]+"$/;

  test('when the token is valid, then the request is forwarded with rate-limit headers and the request id echoed', async () => {
    const requestId = `e2e-${randomUUID()}`;

    const response = await stack.client.get('/partner/v1/balance', { bearer: token, headers: { 'x-request-id': requestId } });

    // The wallet answers its own envelope; what matters here is that the gateway let the request through.
    expect(response.body).toEqual(expect.objectContaining({ success: expect.any(Boolean) }));
    // A success envelope has no code at all (the wallet answers the balance since issue 3).
    expect(String(response.body?.code ?? '')).not.toMatch(/^PKC_1/);
    expect(response.headers['x-request-id']).toBe(requestId);
    expect(response.headers['ratelimit-limit']).toBe('60');
    expect(Number(response.headers['ratelimit-remaining'])).toBeLessThan(60);
  });

  test.each([
    ['there is no Authorization header', {}, bearerChallenge],
    ['the scheme is Basic', { authorization: 'Basic dXNlcjpwYXNz' }, bearerChallenge],
    ['the scheme has no token', { authorization: 'Bearer' }, invalidRequestChallenge],
    ['the token contains spaces', { authorization: 'Bearer abc def' }, invalidRequestChallenge],
  ])('when %s, then the answer is 401 PKC_1005 with the RFC 6750 challenge that fits', async (_case, headers, challenge) => {
    expectError(await balanceWith(headers), 401, 'PKC_1005', challenge);
  });

  test.each([
    ['the token is not a JWT', () => 'not-a-token'],
    ['the payload was changed after signing', () => tamperedToken(token, { sub: randomUUID() })],
    ['the algorithm is none', () => unsignedToken(token)],
    ['the token is signed by a key of our own under the real key id', () => foreignKeyToken(token, {}, decodeToken(token).header.kid as string)],
    ['the token names a key id auth never published', () => foreignKeyToken(token, {}, randomUUID())],
    ['the expiry was pushed back after signing', () => tamperedToken(token, { exp: (decodeToken(token).payload.exp as number) + 86_400 })],
  ])('when %s, then the answer is 401 PKC_1004 with the invalid_token challenge', async (_case, forge) => {
    expectError(await stack.client.get('/partner/v1/balance', { bearer: forge() }), 401, 'PKC_1004', invalidTokenChallenge);
  });

  test('when the token is HS256-signed with the public key as secret, then the answer is 401 PKC_1004', async () => {
    const keyId = decodeToken(token).header.kid as string;
    const forged = hmacWithPublicKeyToken(token, await publishedPublicKeyPem(stack.internalUrls.auth, keyId));

    expectError(await stack.client.get('/partner/v1/balance', { bearer: forged }), 401, 'PKC_1004');
  });

  test('when a genuine token reaches a gateway expecting another issuer or audience, then the answer is 401 PKC_1004', async () => {
    const [otherIssuer, otherAudience] = await Promise.all([
      stack.startExtraGateway({ TOKEN_ISSUER: 'https://auth.elsewhere.example' }),
      stack.startExtraGateway({ TOKEN_AUDIENCE: 'partner-wallet-api:elsewhere' }),
    ]);
    try {
      expectError(await otherIssuer.client.get('/partner/v1/balance', { bearer: token }), 401, 'PKC_1004');
      expectError(await otherAudience.client.get('/partner/v1/balance', { bearer: token }), 401, 'PKC_1004');
    } finally {
      await Promise.all([otherIssuer.stop(), otherAudience.stop()]);
    }
  });

  test.each([
    ['suspended', 'PKC_1006'],
    ['pending_activation', 'PKC_1007'],
    ['inactive', 'PKC_1009'],
  ])('when the operator sets a partner %s, then its existing token gets 403 %s within seconds', async (status, code) => {
    const partner = await onboardPartner(stack);
    const partnerToken = await accessTokenFor(stack.client, partner);
    // The first request fills the gateway's partner cache, so the change must invalidate it.
    expect((await stack.client.get('/partner/v1/balance', { bearer: partnerToken })).body?.code).not.toBe(code);

    await stack.operator(['set-status', partner.clientId, status]);
    const startedAt = Date.now();
    const response = await pollUntil(
      () => stack.client.get('/partner/v1/balance', { bearer: partnerToken }),
      (candidate) => candidate.body?.code === code,
      5_000,
    );

    expectError(response, 403, code);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
  });

  test('when a partner lacks the disbursement permission, then disbursement routes answer 403 PKC_1008 and collection routes do not', async () => {
    const collectionOnly = await accessTokenFor(stack.client, await onboardPartner(stack, { permissions: ['collection'] }));
    const quote = { phone: '0770000001', amount: 100, currency: 'LRD' };

    expectError(await stack.client.post('/partner/v1/disbursement/quote', quote, { bearer: collectionOnly }), 403, 'PKC_1008');
    expectError(await stack.client.post('/partner/v1/disbursement/transfer', { quoteId: randomUUID(), externalId: 'x' }, { bearer: collectionOnly }), 403, 'PKC_1008');
    expectError(await stack.client.get('/partner/v1/disbursement/PKD-1-ABC', { bearer: collectionOnly }), 403, 'PKC_1008');
    const collection = await stack.client.post('/partner/v1/collection/quote', quote, { bearer: collectionOnly });
    expect(collection.body?.code).not.toBe('PKC_1008');
  });

  test('when the operator removes a permission, then the existing token loses it within seconds (permissions come from the fresh record)', async () => {
    const partner = await onboardPartner(stack);
    const partnerToken = await accessTokenFor(stack.client, partner);
    const quote = { phone: '0770000001', amount: 100, currency: 'USD' };
    expect((await stack.client.post('/partner/v1/disbursement/quote', quote, { bearer: partnerToken })).body?.code).not.toBe('PKC_1008');

    await stack.operator(['set-permissions', partner.clientId, 'collection']);
    const response = await pollUntil(
      () => stack.client.post('/partner/v1/disbursement/quote', quote, { bearer: partnerToken }),
      (candidate) => candidate.body?.code === 'PKC_1008',
      5_000,
    );

    expectError(response, 403, 'PKC_1008');
  });

  test('when the client sends its own x-partner-* headers, then they do not change who the gateway says is calling', async () => {
    const collectionOnly = await accessTokenFor(stack.client, await onboardPartner(stack, { permissions: ['collection'] }));

    const response = await stack.client.post(
      '/partner/v1/disbursement/quote',
      { phone: '0770000001', amount: 100, currency: 'LRD' },
      { bearer: collectionOnly, headers: { 'x-partner-permissions': 'collection,disbursement', 'x-partner-id': randomUUID() } },
    );

    expectError(response, 403, 'PKC_1008');
  });

  test('when every token above has been used, forged or refused, then none appears in any process log', () => {
    const logs = stack.logs();

    expect(logs.includes(token)).toBe(false);
    expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
  });
});
