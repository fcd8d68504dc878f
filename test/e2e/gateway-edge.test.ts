import { randomUUID } from 'node:crypto';
import { requestOverPlainHttp, type JsonResponse } from '../support/https-client';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { probeHttp } from '../support/process-probe';

/** The public edge: HTTPS only, the route table, body handling, rate limits and failing fast. */
describe('gateway edge', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  function expectError(response: JsonResponse, status: number, code: string): void {
    expect({ status: response.status, body: response.body }).toEqual({ status, body: { success: false, code, message: expect.any(String) } });
  }

  /** Auth's own count of token requests (its RED metrics), to prove a request never reached it. */
  async function tokenRequestsSeenByAuth(): Promise<number> {
    const metrics = await fetch(`${stack.internalUrls.auth}/metrics`).then((reply) => reply.text());
    return metrics
      .split('\n')
      .filter((line) => line.startsWith('http_requests_total{') && line.includes('route="/partner/auth/token"'))
      .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
  }

  async function freshToken(options: Parameters<typeof onboardPartner>[1] = {}): Promise<string> {
    return accessTokenFor(stack.client, await onboardPartner(stack, options));
  }

  test('when a request arrives over plain HTTP on the public port, then it gets 403 in the envelope, the connection closes and nothing is forwarded', async () => {
    const partner = await onboardPartner(stack);
    const requestId = `plain-${randomUUID()}`;
    const authTokenRequestsBefore = await tokenRequestsSeenByAuth();

    const response = await requestOverPlainHttp(stack.gateway.port, 'POST', '/api/v1/partner/auth/token', {
      json: { client_id: partner.clientId, client_secret: partner.clientSecret },
      headers: { 'x-request-id': requestId },
    });

    expect(response.status).toBe(403);
    expect(response.body).toEqual({ success: false, code: 'PKC_6005', message: expect.stringMatching(/^HTTPS is required/) });
    expect(response.headers.connection).toBe('close');
    expect(stack.logs()).not.toContain(requestId);
    expect(await tokenRequestsSeenByAuth()).toBe(authTokenRequestsBefore);
    // The same request over HTTPS does reach auth, so the count above can move.
    expect((await stack.client.post('/partner/auth/token', { client_id: partner.clientId, client_secret: partner.clientSecret })).status).toBe(200);
    expect(await tokenRequestsSeenByAuth()).toBe(authTokenRequestsBefore + 1);
    const metrics = await fetch(`http://127.0.0.1:${stack.gateway.adminPort}/metrics`).then((reply) => reply.text());
    expect(metrics).toMatch(/gateway_plain_http_rejected_total\{[^}]*\} [1-9]/);
  });

  test('when the public port is asked for health or metrics, then it answers 404; the admin port serves them', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const response = await stack.client.requestAbsolute('GET', path);
      expect(response.status).toBe(404);
      expect(await probeHttp(`http://127.0.0.1:${stack.gateway.adminPort}${path}`)).toBe(200);
    }
  });

  test.each([
    ['an unknown path under /api/v1', 'GET', '/partner/v1/nothing-here'],
    ['an internal path of auth', 'GET', '/internal/jwks'],
    ['a known path with another method', 'DELETE', '/partner/v1/balance'],
    ['a dot segment in a path parameter', 'GET', '/partner/v1/account/..'],
  ])('when the request names %s, then the answer is the 404 envelope, never HTML', async (_case, method, path) => {
    const response = await stack.client.request(method, path, { bearer: 'irrelevant' });

    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ success: false, code: expect.stringMatching(/^PKC_/), message: expect.any(String) });
  });

  test('when the path is outside /api/v1, then the answer is the 404 envelope', async () => {
    const response = await stack.client.requestAbsolute('GET', '/api/v2/partner/v1/balance');

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false });
  });

  test('when an authenticated request has a malformed JSON body, then the answer is 400 PKC_2008 in the envelope', async () => {
    const token = await freshToken();

    const response = await stack.client.request('POST', '/partner/v1/collection/quote', {
      bearer: token,
      rawBody: '{"phone": "0770000001", "amount": ',
      headers: { 'content-type': 'application/json' },
    });

    expectError(response, 400, 'PKC_2008');
    expect(response.text).not.toMatch(/at .*\.js/);
  });

  test('when a body is larger than 16 kb, then the answer is 400 in the envelope', async () => {
    const token = await freshToken();

    const response = await stack.client.post('/partner/v1/collection/quote', { note: 'x'.repeat(17 * 1024) }, { bearer: token });

    expectError(response, 400, 'PKC_2008');
  });

  test('when an unauthenticated request has a malformed body, then authentication is refused first (401 PKC_1005)', async () => {
    const response = await stack.client.request('POST', '/partner/v1/collection/quote', {
      rawBody: '{not json',
      headers: { 'content-type': 'application/json' },
    });

    expectError(response, 401, 'PKC_1005');
  });

  test('when 61 requests of one partner within a minute are spread across two gateways, then 60 pass and the 61st gets 429 PKC_7001 with Retry-After', async () => {
    const token = await freshToken();
    const second = await stack.startExtraGateway();
    try {
      const clients = [stack.client, second.client];
      const passed: JsonResponse[] = [];
      for (let index = 0; index < 60; index += 1) {
        passed.push(await clients[index % 2]!.get('/partner/v1/balance', { bearer: token }));
      }
      const refused = await clients[0]!.get('/partner/v1/balance', { bearer: token });

      expect(passed.filter((response) => response.status === 429)).toHaveLength(0);
      expect(passed.map((response) => Number(response.headers['ratelimit-remaining']))).toEqual(Array.from({ length: 60 }, (_, index) => 59 - index));
      expectError(refused, 429, 'PKC_7001');
      const retryAfterSeconds = Number(refused.headers['retry-after']);
      expect(retryAfterSeconds).toBeGreaterThan(0);
      expect(retryAfterSeconds).toBeLessThanOrEqual(60);
      expect(refused.headers['ratelimit-limit']).toBe('60');
      expect(refused.headers['ratelimit-remaining']).toBe('0');
      expect(Number(refused.headers['ratelimit-reset'])).toBe(retryAfterSeconds);
    } finally {
      await second.stop();
    }
  });

  test('when the operator set a partner its own rate limit, then that limit applies instead of the default', async () => {
    const token = await freshToken({ rateLimitPerMinute: 3 });

    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await stack.client.get('/partner/v1/balance', { bearer: token })).status);

    expect(statuses.slice(0, 3)).not.toContain(429);
    expect(statuses[3]).toBe(429);
  });

  test('when Redis cannot be reached, then the gateway keeps serving, counts the partner limit in its own memory and stays ready', async () => {
    const token = await freshToken({ rateLimitPerMinute: 3 });
    const withoutRedis = await stack.startExtraGateway({ REDIS_URL: 'redis://127.0.0.1:1' }, 'alive');
    try {
      const answers: JsonResponse[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) answers.push(await withoutRedis.client.get('/partner/v1/balance', { bearer: token }));

      expect(answers.slice(0, 3).map((answer) => answer.status)).toEqual([200, 200, 200]);
      expect(answers.slice(0, 3).map((answer) => answer.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
      expectError(answers[3] as JsonResponse, 429, 'PKC_7001');
      expect(await probeHttp(`http://127.0.0.1:${withoutRedis.adminPort}/readyz`)).toBe(200);
      const metrics = await fetch(`http://127.0.0.1:${withoutRedis.adminPort}/metrics`).then((reply) => reply.text());
      expect(metrics).toMatch(/^gateway_rate_limit_fallback_active(\{[^}]*\})? 1$/m);
    } finally {
      await withoutRedis.stop();
    }
  });

  // Last in the file: it stops the wallet service for good.
  test('when the upstream service is down, then the partner gets 503 PKC_7003 within a few seconds, every time, and the breaker opens', async () => {
    const token = await freshToken({ rateLimitPerMinute: 1000 });
    await stack.stopService('wallet');
    // A gateway whose breaker has seen only this outage (the main one counted earlier successes).
    const gateway = await stack.startExtraGateway();
    try {
      const durationsMs: number[] = [];
      for (const client of [stack.client, ...Array.from({ length: 8 }, () => gateway.client)]) {
        const startedAt = Date.now();
        const response = await client.get('/partner/v1/balance', { bearer: token });
        durationsMs.push(Date.now() - startedAt);
        expectError(response, 503, 'PKC_7003');
      }

      expect(Math.max(...durationsMs)).toBeLessThan(3_000);
      const metrics = await fetch(`http://127.0.0.1:${gateway.adminPort}/metrics`).then((reply) => reply.text());
      expect(metrics).toMatch(/circuit_breaker_state\{[^}]*breaker="wallet"[^}]*\} 2/);
      expect(metrics).toMatch(/circuit_breaker_state\{[^}]*breaker="auth"[^}]*\} 0/);
    } finally {
      await gateway.stop();
    }
  });
});
