import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generate as generateCertificate } from 'selfsigned';
import { openApiDocumentText, publicApi } from '@pwa/contracts';
import { createLogger } from '@pwa/logging';
import { readGatewayConfig } from '../../src/config';
import { startGateway, type RunningGateway } from '../../src/gateway';
import { postmanCollectionText } from '../../src/http/postman-collection';
import { referencePageContentSecurityPolicy } from '../../src/http/reference-page';
import { deleteExchange, deleteRedisKeys } from '../../../../test/support/cleanup';
import { HttpsJsonClient, requestOverPlainHttp } from '../../../../test/support/https-client';
import { seriesValue } from '../../../../test/support/prometheus-text';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { serverUrls } = require('../../../../test/support/server-urls') as { serverUrls: () => { amqp: string; redis: string } };

/**
 * GET /api/v1/docs (and its script) and GET /api/v1/postman.json: the gateway in-process with the
 * real Redis and RabbitMQ, no upstream (they point at a closed port). Like the OpenAPI document,
 * they are the gateway's own answers, without a token, through the public listener's order
 * (HTTPS, request id, one per-address budget shared with the document).
 */
describe('gateway: the reference page and the Postman collection', () => {
  const servers = serverUrls();
  const runId = randomBytes(4).toString('hex');
  const exchange = `pwa.gateway-contract-it.${runId}`;
  const redisKeyPrefix = `pwa-gateway-contract-it:${runId}:`;
  const sourceLimitPerMinute = 30;
  let workDirectory: string;
  let gateway: RunningGateway;
  let client: HttpsJsonClient;

  beforeAll(async () => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'gateway-contract-it-'));
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
      TOKEN_ENDPOINT_IP_LIMIT_PER_MINUTE: String(sourceLimitPerMinute),
      ...Object.fromEntries(['AUTH_URL', 'WALLET_URL', 'QUOTES_URL', 'COLLECTIONS_URL', 'DISBURSEMENTS_URL', 'WEBHOOKS_URL'].map((name) => [name, closedPort])),
    });
    gateway = await startGateway(config, { logger: createLogger({ service: 'gateway-contract-test', level: 'silent' }) });
    client = new HttpsJsonClient({ port: gateway.port, certificatePem: pems.cert });
  });

  afterAll(async () => {
    client?.close();
    await gateway?.stop();
    await Promise.allSettled([deleteRedisKeys(servers.redis, redisKeyPrefix), deleteExchange(servers.amqp, exchange)]);
    rmSync(workDirectory, { recursive: true, force: true });
  });

  test('when the reference page is asked for without a token, then it is HTML that loads Redoc from beside it and the document from beside it, under a strict Content-Security-Policy', async () => {
    const response = await client.get('/docs', { headers: { accept: 'text/html' } });

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.text).toContain('<redoc spec-url="openapi.json"');
    expect(response.text).toContain('<script src="docs/redoc.standalone.js"></script>');
    expect(response.text).toContain('<title>Partner Wallet API reference</title>');
    // The summary shows the base URLs as text; nothing the page loads or links to is on another host.
    const addresses = [...response.text.matchAll(/\s(?:src|href|spec-url)="([^"]*)"/g)].map((match) => match[1] ?? '');
    expect(addresses.filter((address) => /^([a-z][a-z0-9+.-]*:)?\/\//i.test(address))).toEqual([]);
    expect(addresses).toEqual(expect.arrayContaining(['openapi.json', 'docs/redoc.standalone.js']));
    expect(response.headers['content-security-policy']).toBe(referencePageContentSecurityPolicy);
    expect(response.headers['content-security-policy']).toContain("script-src 'self';");
    expect(response.headers['content-security-policy']).not.toContain('unsafe');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect(response.headers['x-request-id']).toEqual(expect.any(String));
    expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(response.headers['ratelimit-limit']).toBe(String(sourceLimitPerMinute));
  });

  test('when the reference page is read without running its script, then it already lists the served document’s operations (method, path, summary) and base URLs', async () => {
    const [page, documentAnswer] = await Promise.all([client.get('/docs', { headers: { accept: 'text/html' } }), client.get('/openapi.json')]);
    const served = documentAnswer.body as { servers: { url: string }[]; paths: Record<string, Record<string, { summary: string }>> };
    const unescape = (text: string): string => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');

    const listed = [...page.text.matchAll(/<li><code>([A-Z]+)<\/code> <code>(\/[^<]*)<\/code> ([^<]*)<\/li>/g)].map((match) => `${match[1] ?? ''} ${unescape(match[2] ?? '')} ${unescape(match[3] ?? '').replace(/ \(sandbox only\)$/, '')}`);

    const operations = Object.entries(served.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.summary}`));
    expect(listed.sort()).toEqual(operations.sort());
    for (const server of served.servers) expect(page.text).toContain(`<code>${server.url}</code>`);
  });

  test('when the page’s script is asked for, then it is Redoc’s standalone bundle with no address of another host to load, and its licence notice is beside it', async () => {
    const script = await client.get('/docs/redoc.standalone.js');
    const licence = await client.get('/docs/redoc.standalone.js.LICENSE.txt');

    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.text.length).toBeGreaterThan(500_000);
    expect(script.text).not.toContain('cdn.redoc.ly');
    expect(licence.status).toBe(200);
    expect(licence.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(licence.text).toContain('MIT');
  });

  test('when the Postman collection is asked for, then it is the collection converted from the document the gateway serves, as JSON', async () => {
    const response = await client.get('/postman.json');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.text).toBe(postmanCollectionText(openApiDocumentText()));
    expect(response.body).toMatchObject({ info: { name: 'Partner Wallet API', schema: publicApi.postmanCollectionSchemaUrl }, auth: { type: 'oauth2' } });
  });

  test('when the client sends the ETag it has, then each document answers 304 without a body', async () => {
    for (const documentPath of ['/docs', '/docs/redoc.standalone.js', '/postman.json']) {
      const first = await client.get(documentPath);

      const again = await client.get(documentPath, { headers: { 'if-none-match': String(first.headers.etag) } });

      expect({ documentPath, status: again.status, text: again.text }).toEqual({ documentPath, status: 304, text: '' });
    }
  });

  test('when HEAD is used, then the headers come without the body; when another method or a path beside them is used, then it is an unknown endpoint', async () => {
    const head = await client.request('HEAD', '/docs');
    const posted = await client.post('/postman.json', {});
    const trailingSlash = await client.get('/docs/');
    const otherFile = await client.get('/docs/redoc.standalone.js.map');

    expect({ status: head.status, type: head.headers['content-type'], text: head.text }).toEqual({ status: 200, type: 'text/html; charset=utf-8', text: '' });
    for (const refused of [posted, trailingSlash, otherFile]) expect({ status: refused.status, code: refused.body?.code }).toEqual({ status: 404, code: 'PKC_6002' });
  });

  test('when the page is asked for over plain HTTP, then it is refused like every other path', async () => {
    const response = await requestOverPlainHttp(gateway.port, 'GET', '/api/v1/docs');

    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ success: false, code: 'PKC_6005' });
  });

  test('when one address asks for the documents more often than its per-minute budget, then it gets 429 PKC_7001 on any of them (one budget), and the metrics name each route', async () => {
    const paths = ['/docs', '/postman.json', '/openapi.json', '/docs/redoc.standalone.js'];
    const answers = [];
    for (let index = 0; index <= sourceLimitPerMinute; index += 1) answers.push(await client.get(paths[index % paths.length] ?? '/docs'));

    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.body).toMatchObject({ success: false, code: 'PKC_7001' });
    expect(Number(refused[0]?.headers['retry-after'])).toBeGreaterThan(0);
    const metrics = await (await fetch(`http://127.0.0.1:${gateway.adminPort}/metrics`)).text();
    expect(seriesValue(metrics, 'http_requests_total', { method: 'GET', route: '/api/v1/docs', status_code: '200' })).toBeGreaterThanOrEqual(1);
    expect(seriesValue(metrics, 'http_requests_total', { method: 'GET', route: '/api/v1/postman.json', status_code: '200' })).toBeGreaterThanOrEqual(1);
  });
});
