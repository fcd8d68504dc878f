import { randomUUID } from 'node:crypto';
import { startStack, type Stack } from '../support/stack';
import { accessTokenFor, onboardPartner, requestToken } from '../support/partners';
import { decodeToken } from '../support/tokens';
import type { JsonResponse } from '../support/https-client';
import { freePort } from '../support/private-server-ports';

const basicChallenge = 'Basic realm="partner-wallet-api"';


/** POST /partner/auth/token through the gateway: the spec's token contract and its protection. */
describe('token endpoint', () => {
  let stack: Stack;
  /** Every secret and token this file handles; none may appear in any process log. */
  const secrets: string[] = [];

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** client_secret_basic as RFC 6749 §2.3.1 has it, with a form body beside it. */
  function requestTokenWithBasic(credentials: { clientId: string; clientSecret: string }, form: Record<string, string>): Promise<JsonResponse> {
    const basic = Buffer.from(`${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret)}`).toString('base64');
    secrets.push(basic);
    return stack.client.request('POST', '/partner/auth/token', {
      rawBody: new URLSearchParams(form).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
    });
  }

  async function freshPartner(options: Parameters<typeof onboardPartner>[1] = {}): Promise<Awaited<ReturnType<typeof onboardPartner>>> {
    const partner = await onboardPartner(stack, options);
    secrets.push(partner.clientSecret);
    return partner;
  }

  test('when an active partner presents its credentials, then it receives a bare Bearer token valid for one hour', async () => {
    const partner = await freshPartner();

    const response = await requestToken(stack.client, partner);

    expect(response.status).toBe(200);
    expect(Object.keys(response.body as object).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    const token = response.body.access_token as string;
    secrets.push(token);
    const { header, payload } = decodeToken(token);
    expect(header).toMatchObject({ alg: 'ES256', kid: expect.any(String) });
    expect(payload).toMatchObject({
      iss: 'https://auth.sandbox.partner-wallet.example',
      aud: 'partner-wallet-api:sandbox',
      sub: partner.partnerId,
      cid: partner.clientId,
    });
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
  });

  test('when the credentials arrive form-encoded, then the token is issued as well', async () => {
    const partner = await freshPartner();
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret });

    const response = await stack.client.request('POST', '/partner/auth/token', {
      rawBody: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    secrets.push(response.body.access_token as string);
  });

  test.each([
    ['client_secret is missing', { client_id: randomUUID() }],
    ['client_id is missing', { client_secret: 'something' }],
    ['client_id is not a UUID', { client_id: 'not-a-uuid', client_secret: 'something' }],
    ['the fields are not strings', { client_id: 42, client_secret: ['a'] }],
  ])('when %s, then the answer is 401 PKC_1001 with error invalid_request and the Basic challenge', async (_case, body) => {
    const response = await stack.client.post('/partner/auth/token', body);

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when no credentials are sent at all, then the answer is 401 PKC_1001 with error invalid_client (RFC 6749 §5.2)', async () => {
    const response = await stack.client.post('/partner/auth/token', { grant_type: 'client_credentials' });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_client' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when the body is not valid JSON, then the gateway answers 401 PKC_1001 invalid_request in the envelope with the Basic challenge', async () => {
    const response = await stack.client.request('POST', '/partner/auth/token', {
      rawBody: '{"client_id": "abc", ',
      headers: { 'content-type': 'application/json' },
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when the body is sent as text/plain, then the answer is 401 PKC_1001 invalid_request saying which content types are read', async () => {
    const response = await stack.client.request('POST', '/partner/auth/token', {
      rawBody: JSON.stringify({ client_id: randomUUID(), client_secret: 'a-secret-that-matches-nothing' }),
      headers: { 'content-type': 'text/plain' },
    });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.stringContaining('application/x-www-form-urlencoded'), error: 'invalid_request' });
    expect(response.body.message).not.toContain('a-secret-that-matches-nothing');
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when grant_type is not client_credentials, then the answer is 401 PKC_1001 with error unsupported_grant_type', async () => {
    const partner = await freshPartner();

    const response = await stack.client.post('/partner/auth/token', { grant_type: 'password', client_id: partner.clientId, client_secret: partner.clientSecret });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'unsupported_grant_type' });
  });

  test('when the client_id is unknown, then the answer is 401 PKC_1002 with error invalid_client and the Basic challenge', async () => {
    const response = await requestToken(stack.client, { clientId: randomUUID(), clientSecret: 'a-secret-that-matches-nothing' });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when the secret is wrong, then the answer is 401 PKC_1002 with error invalid_client and the Basic challenge', async () => {
    const partner = await freshPartner();

    const response = await requestToken(stack.client, { clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test('when the credentials arrive in Authorization: Basic (client_secret_basic), then the token is issued', async () => {
    const partner = await freshPartner();

    const response = await requestTokenWithBasic(partner, { grant_type: 'client_credentials' });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(response.headers['cache-control']).toBe('no-store');
    secrets.push(response.body.access_token as string);
  });

  test('when Basic and the body carry the same credentials, then the token is issued', async () => {
    const partner = await freshPartner();

    const response = await requestTokenWithBasic(partner, { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret });

    expect(response.status).toBe(200);
    secrets.push(response.body.access_token as string);
  });

  test('when Basic and the body carry different credentials, then the answer is 401 PKC_1001 with error invalid_request, whichever is right', async () => {
    const partner = await freshPartner();

    const wrongHeader = await requestTokenWithBasic({ clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` }, { client_id: partner.clientId, client_secret: partner.clientSecret });
    const wrongBody = await requestTokenWithBasic(partner, { client_id: partner.clientId, client_secret: `${partner.clientSecret}x` });
    const otherClient = await requestTokenWithBasic(partner, { client_id: randomUUID() });

    for (const response of [wrongHeader, wrongBody, otherClient]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ success: false, code: 'PKC_1001', message: expect.any(String), error: 'invalid_request' });
      expect(response.headers['www-authenticate']).toBe(basicChallenge);
    }
  });

  test('when the Basic secret is wrong, then the answer is 401 PKC_1002 with error invalid_client', async () => {
    const partner = await freshPartner();

    const response = await requestTokenWithBasic({ clientId: partner.clientId, clientSecret: `${partner.clientSecret}x` }, { grant_type: 'client_credentials' });

    expect(response.status).toBe(401);
    expect(response.body).toEqual({ success: false, code: 'PKC_1002', message: expect.any(String), error: 'invalid_client' });
    expect(response.headers['www-authenticate']).toBe(basicChallenge);
  });

  test.each([
    ['suspended', 'PKC_1006'],
    ['inactive', 'PKC_1009'],
  ])('when the partner is %s, then the answer is 403 %s with error unauthorized_client', async (status, code) => {
    const partner = await freshPartner();
    await stack.operator(['set-status', partner.clientId, status]);

    const response = await requestToken(stack.client, partner);

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code, message: expect.any(String), error: 'unauthorized_client' });
  });

  test('when the partner is pending activation, then the answer is 403 PKC_1007 with error unauthorized_client', async () => {
    const partner = await freshPartner({ status: 'pending_activation' });

    const response = await requestToken(stack.client, partner);

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'PKC_1007', message: expect.any(String), error: 'unauthorized_client' });
  });

  test('when a client_id collects 10 wrong secrets, then even the right secret gets 429 PKC_7001 with Retry-After until the window ends', async () => {
    const partner = await freshPartner();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const failed = await requestToken(stack.client, { clientId: partner.clientId, clientSecret: `wrong-${attempt}` });
      expect(failed.body).toMatchObject({ code: 'PKC_1002' });
    }

    const locked = await requestToken(stack.client, partner);

    expect(locked.status).toBe(429);
    expect(locked.body).toEqual({ success: false, code: 'PKC_7001', message: expect.any(String), error: 'temporarily_unavailable' });
    const retryAfterSeconds = Number(locked.headers['retry-after']);
    expect(retryAfterSeconds).toBeGreaterThan(0);
    expect(retryAfterSeconds).toBeLessThanOrEqual(900);
  });

  test('when a client_id collects 10 wrong secrets sent with Basic, then it is locked for Basic and body credentials alike', async () => {
    const partner = await freshPartner();
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const failed = await requestTokenWithBasic({ clientId: partner.clientId, clientSecret: `wrong-${attempt}` }, { grant_type: 'client_credentials' });
      expect(failed.body).toMatchObject({ code: 'PKC_1002' });
    }

    const lockedBasic = await requestTokenWithBasic(partner, { grant_type: 'client_credentials' });
    const lockedBody = await requestToken(stack.client, partner);

    expect([lockedBasic.status, lockedBasic.body?.code, lockedBasic.body?.error]).toEqual([429, 'PKC_7001', 'temporarily_unavailable']);
    expect([lockedBody.status, lockedBody.body?.code]).toEqual([429, 'PKC_7001']);
    expect(Number(lockedBasic.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('when a source already obtained a token, then failures elsewhere for that client_id do not lock it out', async () => {
    const partner = await freshPartner();
    secrets.push(await accessTokenFor(stack.client, partner));
    for (let attempt = 1; attempt <= 12; attempt += 1) {
      await requestToken(stack.client, { clientId: partner.clientId, clientSecret: `wrong-${attempt}` });
    }

    const response = await requestToken(stack.client, partner);

    expect(response.status).toBe(200);
    secrets.push(response.body.access_token as string);
  });

  test('when one address calls the token endpoint more often than its per-minute budget, then it gets 429 PKC_7001 with Retry-After', async () => {
    const gateway = await stack.startExtraGateway({
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '5',
      REDIS_KEY_PREFIX: `${stack.redisKeyPrefix}source-budget:`,
    });
    try {
      const statuses: number[] = [];
      for (let attempt = 1; attempt <= 5; attempt += 1) {
        statuses.push((await gateway.client.post('/partner/auth/token', { client_id: 'not-a-uuid' })).status);
      }
      const refused = await gateway.client.post('/partner/auth/token', { client_id: 'not-a-uuid' });

      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ success: false, code: 'PKC_7001', message: expect.any(String), error: 'temporarily_unavailable' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    } finally {
      await gateway.stop();
    }
  });

  test('when auth cannot be reached, then the token endpoint answers 503 PKC_7003 with error temporarily_unavailable', async () => {
    // A port nothing listens on: connections to it are refused at once.
    const gateway = await stack.startExtraGateway({ AUTH_URL: `http://127.0.0.1:${String(await freePort())}` }, 'alive');
    try {
      const response = await gateway.client.post('/partner/auth/token', { client_id: randomUUID(), client_secret: 'a-secret-that-matches-nothing' });

      expect(response.status).toBe(503);
      expect(response.body).toEqual({ success: false, code: 'PKC_7003', message: expect.any(String), error: 'temporarily_unavailable' });
    } finally {
      await gateway.stop();
    }
  });

  test('when every exchange above is done, then no client secret or token appears in any process log', () => {
    const logs = stack.logs();

    expect(logs.length).toBeGreaterThan(0);
    expect(secrets.length).toBeGreaterThan(5);
    for (const secret of secrets) expect(logs.includes(secret)).toBe(false);
    expect(logs).not.toMatch(/Basic [A-Za-z0-9+/]{20,}/);
    expect(logs).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
  });
});
