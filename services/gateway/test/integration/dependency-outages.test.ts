import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { generate as generateCertificate } from 'selfsigned';
import type { PartnerEventData } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { readGatewayConfig } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { startTcpProxy, viaProxy, type TcpProxy } from '../../../../libs/bus/test/support/tcp-proxy';
import { deleteExchange } from '../../../../test/support/cleanup';
import { HttpsJsonClient } from '../../../../test/support/https-client';
import { seriesValue } from '../../../../test/support/prometheus-text';
import { startPrivateRedisServer, type PrivateRedisServer } from '../../../../test/support/private-redis';
import { claimsFor, createTestSigner } from '../support/signing';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string } };

/**
 * The gateway in-process while its dependencies go away: a private redis-server this file starts
 * and stops (never the shared one), and the real broker behind a TCP relay the test can cut.
 * Auth and the upstream are stand-ins. The gateway must keep serving and stay ready through both.
 */
describe('gateway through Redis and broker outages', () => {
  const servers = serverUrls();
  const runId = randomBytes(4).toString('hex');
  const exchange = `pwa.gateway-outage.${runId}`;
  const redisKeyPrefix = `pwa-gateway-outage:${runId}:`;
  const issuer = 'https://auth.sandbox.partner-wallet.example';
  const audience = 'partner-wallet-api:sandbox';
  const signer = createTestSigner(`kid-${runId}`);
  const partners = new Map<string, PartnerEventData>();
  const logger = createLogger({ service: 'gateway-outage-test', level: 'silent' });
  let workDirectory: string;
  let certificatePem: string;
  let auth: http.Server;
  let upstream: http.Server;
  let redisServer: PrivateRedisServer;
  let brokerProxy: TcpProxy;

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

  async function gatewayWith(overrides: Record<string, string> = {}): Promise<{ gateway: RunningGateway; client: HttpsJsonClient; scrape: () => Promise<string>; readyStatus: () => Promise<number>; stop: () => Promise<void> }> {
    const config = readGatewayConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      TLS_CERT_FILE: path.join(workDirectory, 'tls.crt'),
      TLS_KEY_FILE: path.join(workDirectory, 'tls.key'),
      REDIS_URL: redisServer.url,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      AMQP_URL: viaProxy(servers.amqp, brokerProxy),
      BUS_EXCHANGE: exchange,
      AUTH_URL: urlOf(auth),
      ...Object.fromEntries(['WALLET_URL', 'QUOTES_URL', 'COLLECTIONS_URL', 'DISBURSEMENTS_URL', 'WEBHOOKS_URL'].map((name) => [name, urlOf(upstream)])),
      ...overrides,
    });
    const gateway = await startGateway(config, { logger });
    const client = new HttpsJsonClient({ port: gateway.port, certificatePem, validateAnswers: false });
    const admin = `http://127.0.0.1:${gateway.adminPort}`;
    return {
      gateway,
      client,
      scrape: async () => (await fetch(`${admin}/metrics`)).text(),
      readyStatus: async () => (await fetch(`${admin}/readyz`)).status,
      stop: async () => {
        client.close();
        await gateway.stop();
      },
    };
  }

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'gateway-outage-'));
    const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    certificatePem = pems.cert;
    writeFileSync(path.join(workDirectory, 'tls.crt'), pems.cert);
    writeFileSync(path.join(workDirectory, 'tls.key'), pems.private);
    auth = await listenOn(standInAuth(signer, partners));
    upstream = await listenOn((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":"0.00"}'));
    redisServer = await startPrivateRedisServer();
    const brokerUrl = new URL(servers.amqp);
    brokerProxy = await startTcpProxy(brokerUrl.hostname, Number(brokerUrl.port || 5672));
  });

  afterAll(async () => {
    await Promise.all([auth, upstream].map((server) => server && new Promise((resolve) => server.close(resolve))));
    await redisServer?.dispose();
    await brokerProxy?.close();
    await deleteExchange(servers.amqp, exchange).catch(() => undefined);
    rmSync(workDirectory, { recursive: true, force: true });
  });

  test('when Redis stops, then the gateway stays ready and limits each partner in its own memory (headers, 429 with Retry-After), says so in its metrics, and counts in Redis again by itself when Redis returns', async () => {
    const running = await gatewayWith();
    try {
      const beforeOutage = await running.client.get('/partner/v1/balance', { bearer: tokenOf(partner({ rateLimitPerMinute: 3 })) });
      expect(beforeOutage.status).toBe(200);
      expect(seriesValue(await running.scrape(), 'gateway_rate_limit_fallback_active', {})).toBe(0);

      await redisServer.stop();
      const limited = partner({ rateLimitPerMinute: 3 });
      const during = [];
      for (let index = 0; index < 4; index += 1) during.push(await running.client.get('/partner/v1/balance', { bearer: tokenOf(limited) }));
      const duringScrape = await running.scrape();
      const readyDuring = await running.readyStatus();

      expect(during.slice(0, 3).map((response) => [response.status, response.headers['ratelimit-remaining']])).toEqual([
        [200, '2'],
        [200, '1'],
        [200, '0'],
      ]);
      expect(during[3]?.status).toBe(429);
      expect((during[3]?.body as { code?: string }).code).toBe('PKC_7001');
      expect(Number(during[3]?.headers['retry-after'])).toBeGreaterThan(0);
      expect(during[3]?.headers['ratelimit-limit']).toBe('3');
      expect(readyDuring).toBe(200);
      expect(seriesValue(duringScrape, 'gateway_rate_limit_fallback_active', {})).toBe(1);
      expect(seriesValue(duringScrape, 'gateway_rate_limit_fallback_seconds_total', {})).toBeGreaterThan(0);

      await redisServer.start();
      await waitFor(async () => seriesValue(await running.scrape(), 'gateway_rate_limit_fallback_active', {}) === 0, 'the gateway leaves the fallback');
      const afterRecord = partner({ rateLimitPerMinute: 3 });
      const after = await running.client.get('/partner/v1/balance', { bearer: tokenOf(afterRecord) });
      const afterScrape = await running.scrape();

      expect([after.status, after.headers['ratelimit-remaining']]).toEqual([200, '2']);
      const [afterKey] = await redisKeysWith(afterRecord.partnerId);
      expect(afterKey === undefined ? undefined : await redisCommand(['type', afterKey])).toBe('zset');
      expect(seriesValue(afterScrape, 'gateway_rate_limit_fallback_seconds_total', {})).toBeGreaterThanOrEqual(seriesValue(duringScrape, 'gateway_rate_limit_fallback_seconds_total', {}) ?? Infinity);
    } finally {
      await running.stop();
    }
  });

  test('when Redis is away, then the token endpoint still answers, its per-source budget is counted in memory, and the client lockout fails open', async () => {
    const running = await gatewayWith({ TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '3', TOKEN_ENDPOINT_CLIENT_FAILURES_MAX: '1' });
    await redisServer.stop();
    try {
      await waitFor(async () => seriesValue(await running.scrape(), 'gateway_rate_limit_fallback_active', {}) === 1, 'the gateway sees Redis gone');
      const clientId = randomUUID();
      const statuses: number[] = [];
      // Two wrong secrets (the second would be locked with Redis), a right one, then the address's budget (3) is spent.
      for (const secret of ['wrong', 'wrong', 'right', 'right']) statuses.push((await running.client.post('/partner/auth/token', { client_id: clientId, client_secret: secret })).status);

      expect(statuses).toEqual([401, 401, 200, 429]);
      expect(await running.readyStatus()).toBe(200);
    } finally {
      await redisServer.start();
      await running.stop();
    }
  });

  test('when the broker is unreachable at start and then cut again, then the gateway starts, stays ready and serves, bus_connected says so, and a partner entry lives only PARTNER_CACHE_TTL_WITHOUT_BUS_MS', async () => {
    brokerProxy.setRefusing(true);
    const running = await gatewayWith({ PARTNER_CACHE_TTL_WITHOUT_BUS_MS: '200' });
    try {
      const record = partner();
      const whileRefused = await running.client.get('/partner/v1/balance', { bearer: tokenOf(record) });
      const scrapeWhileRefused = await running.scrape();

      expect(whileRefused.status).toBe(200);
      expect(await running.readyStatus()).toBe(200);
      expect(seriesValue(scrapeWhileRefused, 'bus_connected', {})).toBe(0);

      brokerProxy.setRefusing(false);
      await waitFor(async () => seriesValue(await running.scrape(), 'bus_connected', {}) === 1, 'the gateway connects to the broker');
      brokerProxy.setRefusing(true);
      brokerProxy.dropConnections();
      await waitFor(async () => seriesValue(await running.scrape(), 'bus_connected', {}) === 0, 'the gateway sees the broker gone');
      expect(await running.readyStatus()).toBe(200);
      expect((await running.client.get('/partner/v1/balance', { bearer: tokenOf(record) })).status).toBe(200);
      partners.set(record.partnerId, { ...record, status: 'suspended' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const afterSuspension = await running.client.get('/partner/v1/balance', { bearer: tokenOf(record) });

      expect(afterSuspension.status).toBe(403);
      expect((afterSuspension.body as { code?: string }).code).toBe('PKC_1006');
    } finally {
      brokerProxy.setRefusing(false);
      await running.stop();
    }
  });

  /** The sliding-window log of decision 0005: one sorted set per partner, as before the library. */
  async function redisKeysWith(fragment: string): Promise<string[]> {
    return (await redisCommand(['keys', `${redisKeyPrefix}*${fragment}*`])) as string[];
  }

  async function redisCommand([command, ...args]: [string, ...string[]]): Promise<unknown> {
    const redis = new Redis(redisServer.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      return await redis.call(command, ...args);
    } finally {
      redis.disconnect();
    }
  }
});

/** Polls until the condition holds, for at most 20 s (reconnects back off up to 5 s). */
async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
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
