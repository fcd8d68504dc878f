import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { createLogger } from '@pwa/logging';
import { readGatewayConfig } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { deleteExchange, deleteRedisKeys } from '../../../../test/support/cleanup';
import { HttpsJsonClient, requestOverPlainHttp } from '../../../../test/support/https-client';
import { seriesValue } from '../../../../test/support/prometheus-text';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string; redis: string } };

/**
 * GET /api/v1/openapi.json: the gateway in-process with the real Redis and RabbitMQ. No upstream
 * is needed (they point at a closed port): the document is the gateway's own answer, without a
 * token, through the public listener's order (HTTPS, request id, a per-address limit).
 */
describe('gateway: the OpenAPI document', () => {
  const servers = serverUrls();
  const runId = randomBytes(4).toString('hex');
  const exchange = `pwa.gateway-openapi-it.${runId}`;
  const redisKeyPrefix = `pwa-gateway-openapi-it:${runId}:`;
  const committedDocument = readFileSync(path.resolve(__dirname, '../../../../docs/openapi.json'), 'utf8');
  let workDirectory: string;
  let gateway: RunningGateway;
  let client: HttpsJsonClient;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'gateway-openapi-it-'));
    const pems = await generateCertificate([{ name: 'commonName', value: 'localhost' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    writeFileSync(path.join(workDirectory, 'tls.crt'), pems.cert);
    writeFileSync(path.join(workDirectory, 'tls.key'), pems.private);
    const closedPort = 'http://127.0.0.1:9';
    const config = readGatewayConfig({
      PORT: '0',
      ADMIN_PORT: '0',
      TLS_CERT_FILE: path.join(workDirectory, 'tls.crt'),
      TLS_KEY_FILE: path.join(workDirectory, 'tls.key'),
      REDIS_URL: servers.redis,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      AMQP_URL: servers.amqp,
      BUS_EXCHANGE: exchange,
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: '5',
      ...Object.fromEntries(['AUTH_URL', 'WALLET_URL', 'QUOTES_URL', 'COLLECTIONS_URL', 'DISBURSEMENTS_URL', 'WEBHOOKS_URL'].map((name) => [name, closedPort])),
    });
    gateway = await startGateway(config, { logger: createLogger({ service: 'gateway-openapi-test', level: 'silent' }) });
    client = new HttpsJsonClient({ port: gateway.port, certificatePem: pems.cert });
  });

  afterAll(async () => {
    client?.close();
    await gateway?.stop();
    await Promise.allSettled([deleteRedisKeys(servers.redis, redisKeyPrefix), deleteExchange(servers.amqp, exchange)]);
    rmSync(workDirectory, { recursive: true, force: true });
  });

  test('when the document is asked for without a token, then it is answered as committed in docs/openapi.json, as JSON, cacheable, with a request id and HSTS', async () => {
    const response = await client.get('/openapi.json');

    expect(response.status).toBe(200);
    expect(response.text).toBe(committedDocument);
    expect(response.body).toMatchObject({ openapi: '3.1.0', info: { title: 'Partner Wallet API' } });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(response.headers['ratelimit-limit']).toBe('5');
  });

  test('when the client sends the ETag it has, then the answer is 304 without a body', async () => {
    const first = await client.get('/openapi.json');

    const again = await client.get('/openapi.json', { headers: { 'if-none-match': String(first.headers.etag) } });

    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  test('when another method is used on the path, then it is an unknown endpoint like any other', async () => {
    const response = await client.post('/openapi.json', {});

    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_6002' });
  });

  test('when one address asks more often than its per-minute budget, then it gets 429 PKC_7001 with Retry-After, and the metrics name the route', async () => {
    const answers = [];
    for (let index = 0; index < 6; index += 1) answers.push(await client.get('/openapi.json'));

    const refused = answers.find((answer) => answer.status === 429);
    expect(refused?.body).toMatchObject({ success: false, code: 'PKC_7001' });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    const metrics = await (await fetch(`http://127.0.0.1:${gateway.adminPort}/metrics`)).text();
    expect(seriesValue(metrics, 'http_requests_total', { method: 'GET', route: '/api/v1/openapi.json', status_code: '429' })).toBeGreaterThanOrEqual(1);
  });

  test('when the document is asked for over plain HTTP, then it is refused like every other path', async () => {
    const response = await requestOverPlainHttp(gateway.port, 'GET', '/api/v1/openapi.json');

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_6005' });
  });
});
