import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { connectBus, type Bus } from '@pwa/bus';
import { createEventEnvelope, type PartnerEventData } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { readGatewayConfig } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { deleteExchange, deleteRedisKeys } from '../../../../test/support/cleanup';
import { HttpsJsonClient, requestOverPlainHttp } from '../../../../test/support/https-client';
import { claimsFor, createTestSigner } from '../support/signing';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string; redis: string } };
import { seriesValue } from '../../../../test/support/prometheus-text';

/**
 * The gateway in-process against a stand-in auth and an echoing upstream (so the forwarded request
 * can be inspected), with the real Redis and RabbitMQ. The e2e suites cover it with the real stack.
 */
describe('gateway (in-process, stand-in upstreams)', () => {
  const servers = serverUrls();
  const runId = randomBytes(4).toString('hex');
  const exchange = `pwa.gateway-it.${runId}`;
  const redisKeyPrefix = `pwa-gateway-it:${runId}:`;
  const issuer = 'https://auth.sandbox.partner-wallet.example';
  const audience = 'partner-wallet-api:sandbox';
  const signer = createTestSigner(`kid-${runId}`);
  const partners = new Map<string, PartnerEventData>();
  const logger = createLogger({ service: 'gateway-test', level: 'silent' });
  let workDirectory: string;
  let certificatePem: string;
  let auth: http.Server;
  let upstream: http.Server;
  let gateway: RunningGateway;
  let client: HttpsJsonClient;
  let bus: Bus;

  function partner(overrides: Partial<PartnerEventData> = {}): PartnerEventData {
    const record: PartnerEventData = {
      partnerId: randomUUID(),
      clientId: randomUUID(),
      name: 'Test partner',
      status: 'active',
      permissions: ['collection', 'disbursement'],
      rateLimitPerMinute: null,
      webhookUrl: null,
      ...overrides,
    };
    partners.set(record.partnerId, record);
    return record;
  }

  function tokenOf(record: PartnerEventData): string {
    return signer.sign(claimsFor({ partnerId: record.partnerId, clientId: record.clientId, issuer, audience, nowSeconds: Math.floor(Date.now() / 1000) }));
  }

  function configFor(overrides: Record<string, string>) {
    return readGatewayConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      TLS_CERT_FILE: path.join(workDirectory, 'tls.crt'),
      TLS_KEY_FILE: path.join(workDirectory, 'tls.key'),
      REDIS_URL: servers.redis,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      AMQP_URL: servers.amqp,
      BUS_EXCHANGE: exchange,
      AUTH_URL: urlOf(auth),
      ...Object.fromEntries(['WALLET_URL', 'QUOTES_URL', 'COLLECTIONS_URL', 'DISBURSEMENTS_URL', 'WEBHOOKS_URL'].map((name) => [name, urlOf(upstream)])),
      UPSTREAM_TIMEOUT_MS: '300',
      ...overrides,
    });
  }

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'gateway-it-'));
    const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    certificatePem = pems.cert;
    writeFileSync(path.join(workDirectory, 'tls.crt'), pems.cert);
    writeFileSync(path.join(workDirectory, 'tls.key'), pems.private);
    auth = await listenOn(standInAuth(signer, partners));
    upstream = await listenOn(echoUpstream);
    gateway = await startGateway(configFor({}), { logger });
    client = new HttpsJsonClient({ port: gateway.port, certificatePem, validateAnswers: false });
    bus = await connectBus({ url: servers.amqp, exchange, serviceName: 'gateway-test', logger });
  });

  afterAll(async () => {
    client?.close();
    await gateway?.stop();
    await bus?.close();
    await Promise.all([auth, upstream].map((server) => server && new Promise((resolve) => server.close(resolve))));
    await Promise.allSettled([deleteRedisKeys(servers.redis, redisKeyPrefix), deleteExchange(servers.amqp, exchange)]);
    rmSync(workDirectory, { recursive: true, force: true });
  });

  test('when a request is admitted, then the upstream gets the stripped path, the query, the body and the gateway headers only', async () => {
    const record = partner({ permissions: ['collection'] });

    const response = await client.post(
      '/partner/v1/collection/quote?trace=1',
      { phone: '0770000001', amount: 100, currency: 'LRD' },
      {
        bearer: tokenOf(record),
        headers: { 'x-request-id': 'req-123', 'x-partner-id': randomUUID(), 'x-partner-permissions': 'disbursement', 'x-partner-actor': `member:${randomUUID()}`, cookie: 'a=b' },
      },
    );

    expect(response.status).toBe(200);
    const seen = response.body as EchoedRequest;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/partner/v1/collection/quote?trace=1');
    expect(JSON.parse(seen.body)).toEqual({ phone: '0770000001', amount: 100, currency: 'LRD' });
    expect(seen.headers).toMatchObject({
      'x-request-id': 'req-123',
      'x-partner-id': record.partnerId,
      'x-partner-client-id': record.clientId,
      'x-partner-permissions': 'collection',
      'x-partner-actor': `client:${record.clientId}`,
      'content-type': 'application/json',
    });
    expect(seen.headers).not.toHaveProperty('authorization');
    expect(seen.headers).not.toHaveProperty('cookie');
    expect(response.headers['x-request-id']).toBe('req-123');
    expect(response.headers['x-upstream-header']).toBe('kept');
    expect(response.headers['ratelimit-limit']).toBe('60');
  });

  test("when the upstream answers with its own error envelope, then it reaches the partner unchanged", async () => {
    const response = await client.get('/partner/v1/account/error-409', { bearer: tokenOf(partner()) });

    expect(response.status).toBe(409);
    expect(response.body).toEqual({ success: false, code: 'PKC_6001', message: 'from upstream' });
  });

  test('when the upstream does not answer within the route deadline, then the partner gets 503 PKC_7003 just after it', async () => {
    const startedAt = Date.now();

    const response = await client.get('/partner/v1/account/hang', { bearer: tokenOf(partner()) });

    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ code: 'PKC_7003' });
    expect(Date.now() - startedAt).toBeLessThan(1_500);
  });

  test('when a partner.updated event arrives on the bus, then the cached partner is dropped and the new status applies', async () => {
    const record = partner();
    const token = tokenOf(record);
    expect((await client.get('/partner/v1/balance', { bearer: token })).status).toBe(200);
    const suspended: PartnerEventData = { ...record, status: 'suspended' };
    partners.set(record.partnerId, suspended);
    expect((await client.get('/partner/v1/balance', { bearer: token })).status).toBe(200);

    await bus.publish(createEventEnvelope({ type: 'partner.updated', producer: 'auth', data: suspended }));
    const deadline = Date.now() + 3_000;
    let response = await client.get('/partner/v1/balance', { bearer: token });
    while (response.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      response = await client.get('/partner/v1/balance', { bearer: token });
    }

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ code: 'PKC_1006' });
  });

  test('when the token endpoint is called, then the body is forwarded to auth and the answer is not cached', async () => {
    const record = partner();

    const response = await client.post('/partner/auth/token', { client_id: record.clientId, client_secret: 'right' });

    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatchObject({ token_type: 'Bearer' });
  });

  test('when plain HTTP reaches the public port, then it gets the 403 envelope and is not forwarded', async () => {
    const response = await requestOverPlainHttp(gateway.port, 'GET', '/api/v1/partner/v1/balance', { headers: { authorization: `Bearer ${tokenOf(partner())}` } });

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_6005' });
  });

  test('when TLS ends at a trusted proxy, then only requests it marks as HTTPS are served', async () => {
    const proxied = await startGateway(configFor({ TLS_MODE: 'proxy', TRUSTED_PROXIES: 'loopback' }), { logger });
    try {
      const token = tokenOf(partner());
      const overHttps = await requestOverPlainHttp(proxied.port, 'GET', '/api/v1/partner/v1/balance', {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' },
      });
      const overHttp = await requestOverPlainHttp(proxied.port, 'GET', '/api/v1/partner/v1/balance', {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'http' },
      });
      const unmarked = await requestOverPlainHttp(proxied.port, 'GET', '/api/v1/partner/v1/balance', { headers: { authorization: `Bearer ${token}` } });

      expect(overHttps.status).toBe(200);
      expect(overHttps.headers['strict-transport-security']).toMatch(/max-age/);
      expect([overHttp.status, overHttp.body?.code]).toEqual([403, 'PKC_6005']);
      expect([unmarked.status, unmarked.body?.code]).toEqual([403, 'PKC_6005']);
    } finally {
      await proxied.stop();
    }
  });

  test('when each limit refuses a request, then gateway_rate_limit_rejections_total counts it under that limit and pkc_errors_total under PKC_7001', async () => {
    const limited = await startGateway(
      configFor({ REDIS_KEY_PREFIX: `${redisKeyPrefix}limits:`, TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '3', TOKEN_ENDPOINT_CLIENT_FAILURES_MAX: '1' }),
      { logger },
    );
    const limitedClient = new HttpsJsonClient({ port: limited.port, certificatePem, validateAnswers: false });
    const scrape = async (): Promise<string> => (await fetch(`http://127.0.0.1:${limited.adminPort}/metrics`)).text();
    try {
      const before = await scrape();
      const token = tokenOf(partner({ rateLimitPerMinute: 1 }));
      const partnerStatuses = [(await limitedClient.get('/partner/v1/balance', { bearer: token })).status, (await limitedClient.get('/partner/v1/balance', { bearer: token })).status];
      const clientId = randomUUID();
      const tokenStatuses: number[] = [];
      // 1: a wrong secret (the client's one allowed failure); 2, 3: the client is locked out; 4: the address's budget (3) is spent.
      for (let attempt = 0; attempt < 4; attempt += 1) tokenStatuses.push((await limitedClient.post('/partner/auth/token', { client_id: clientId, client_secret: 'wrong' })).status);
      const after = await scrape();

      expect(partnerStatuses).toEqual([200, 429]);
      expect(tokenStatuses).toEqual([401, 429, 429, 429]);
      for (const limit of ['partner', 'token_ip', 'token_client_lockout']) {
        expect(seriesValue(before, 'gateway_rate_limit_rejections_total', { limit, service: 'gateway' })).toBe(0);
      }
      expect(seriesValue(after, 'gateway_rate_limit_rejections_total', { limit: 'partner' })).toBe(1);
      expect(seriesValue(after, 'gateway_rate_limit_rejections_total', { limit: 'token_client_lockout' })).toBe(2);
      expect(seriesValue(after, 'gateway_rate_limit_rejections_total', { limit: 'token_ip' })).toBe(1);
      expect(seriesValue(after, 'pkc_errors_total', { code: 'PKC_7001', status_code: '429' })).toBe(4);
    } finally {
      limitedClient.close();
      await limited.stop();
    }
  });

  test('when the proxy is not trusted, then its X-Forwarded-Proto is ignored', async () => {
    const proxied = await startGateway(configFor({ TLS_MODE: 'proxy', TRUSTED_PROXIES: '10.0.0.1' }), { logger });
    try {
      const response = await requestOverPlainHttp(proxied.port, 'GET', '/api/v1/partner/v1/balance', {
        headers: { authorization: `Bearer ${tokenOf(partner())}`, 'x-forwarded-proto': 'https' },
      });

      expect([response.status, response.body?.code]).toEqual([403, 'PKC_6005']);
    } finally {
      await proxied.stop();
    }
  });
});

/** The value of one series in Prometheus text, matched by name and a subset of its labels. */

interface EchoedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Answers with what it received; "/account/hang" never answers and "/account/error-409" answers an envelope. */
function echoUpstream(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (req.url?.endsWith('/account/hang')) return;
    if (req.url?.endsWith('/account/error-409')) {
      res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, code: 'PKC_6001', message: 'from upstream' }));
      return;
    }
    const echoed: EchoedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') };
    res.writeHead(200, { 'content-type': 'application/json', 'x-upstream-header': 'kept', 'x-request-id': 'upstream-must-not-win' });
    res.end(JSON.stringify(echoed));
  });
}

/** Just enough of auth's internal API: the JWKS, partner lookups and a token endpoint that accepts "right". */
function standInAuth(signer: ReturnType<typeof createTestSigner>, partners: Map<string, PartnerEventData>): http.RequestListener {
  const jwk = { ...signer.publicKey.export({ format: 'jwk' }), kid: signer.keyId, alg: 'ES256', use: 'sig' };
  return (req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/internal/jwks') return send(200, { keys: [jwk] });
      const partnerMatch = /^\/internal\/partners\/([^/]+)$/.exec(req.url ?? '');
      if (partnerMatch) {
        const record = partners.get(partnerMatch[1] ?? '');
        return record ? send(200, record) : send(404, { success: false, code: 'PKC_1009', message: 'No such partner' });
      }
      if (req.url === '/partner/auth/token' && req.method === 'POST') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { client_secret?: string };
        if (body.client_secret !== 'right') return send(401, { success: false, code: 'PKC_1002', message: 'no' });
        return send(200, { access_token: 'stand-in', token_type: 'Bearer', expires_in: 3600 });
      }
      return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
    });
  };
}

async function listenOn(handler: http.RequestListener): Promise<http.Server> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function urlOf(server: http.Server): string {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
