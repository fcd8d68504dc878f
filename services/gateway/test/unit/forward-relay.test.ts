import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { Registry } from 'prom-client';
import { errorCatalogue } from '@pwa/errors';
import { createApp } from '@pwa/http';
import { createLogger } from '@pwa/logging';
import type { TokenEndpointPorts } from '../../src/domain/guard-token-endpoint';
import { upstreamNames, type RouteDefinition, type UpstreamName } from '../../src/domain/routes';
import { forwardAdmittedRequests } from '../../src/http/forward';
import { contextOf } from '../../src/http/request-context';
import { createUpstreamClients, shutdownUpstreamClients, type UpstreamClients } from '../../src/upstream/upstream-clients';

/**
 * The gateway's last step, forward.ts, over the one upstream client of libs/http, against a real
 * local upstream: what the partner gets when the upstream answers (its bytes and headers, relayed)
 * and when it does not (503 PKC_7003, the token endpoint's with its RFC 6749 error). Admission is
 * left out: a first middleware names the route as matchPublicRoute would.
 */
const logger = createLogger({ service: 'gateway-forward-test', level: 'silent', environment: 'sandbox' });
const breaker = { errorThresholdPercent: 50, volumeThreshold: 3, resetTimeoutMs: 60_000, rollingWindowMs: 10_000 };
const unavailableMessage = errorCatalogue.PKC_7003.message;

const statementRoute: RouteDefinition = {
  method: 'GET',
  pathTemplate: '/partner/v1/statement',
  upstream: 'wallet',
  authentication: 'bearer',
  requiredPermission: null,
  timeoutClass: 'standard',
  negotiatesMediaType: true,
};
// The 2 MB relay runs under the long deadline: under a loaded CI, copying 2 MB may take longer than the short one (300 ms here).
const bulkQuoteRoute: RouteDefinition = { ...statementRoute, method: 'POST', pathTemplate: '/partner/v1/disbursement/bulk/quote', upstream: 'quotes', largeBody: true, timeoutClass: 'transfer' };
const tokenRoute: RouteDefinition = { ...statementRoute, method: 'POST', pathTemplate: '/partner/auth/token', upstream: 'auth', authentication: 'none', acceptsFormBody: true };

/** Never called: these token requests name no client_id, so no lockout is read or recorded. */
const tokenPorts: TokenEndpointPorts = {
  countSourceRequest: () => Promise.reject(new Error('not expected')),
  readClientLockout: () => Promise.reject(new Error('not expected')),
  recordCredentialFailure: () => Promise.reject(new Error('not expected')),
  recordCredentialSuccess: () => Promise.reject(new Error('not expected')),
};

interface Listening {
  url: string;
  close(): Promise<void>;
}

async function listenOn(handler: http.RequestListener): Promise<Listening> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

async function closedPortUrl(): Promise<string> {
  const listening = await listenOn(() => undefined);
  await listening.close();
  return listening.url;
}

describe('forwarding through the one upstream client', () => {
  let answer: (res: http.ServerResponse) => void;
  let reached: number;
  let upstream: Listening;
  let upstreams: UpstreamClients;
  let gateway: Listening;

  async function startGateway(baseUrl: string): Promise<void> {
    upstreams = createUpstreamClients(
      { baseUrls: Object.fromEntries(upstreamNames.map((name) => [name, baseUrl])) as Record<UpstreamName, string>, maxSockets: 8, breaker },
      new Registry(),
      logger,
    );
    const routeOfRequest: RequestHandler = (req, res, next) => {
      const context = contextOf(res);
      context.route = [statementRoute, bulkQuoteRoute, tokenRoute].find((route) => req.path === `/api/v1${route.pathTemplate}`);
      context.upstreamPath = req.url.slice('/api/v1'.length);
      next();
    };
    const { app } = createApp({
      serviceName: 'gateway',
      logger,
      before: [routeOfRequest],
      mountOperationalRoutes: false,
      routes: (expressApp) => {
        expressApp.use(forwardAdmittedRequests({ upstreams, timeoutsMs: { standard: 300, transfer: 15_000 }, tokenEndpoint: { ports: tokenPorts, clientFailuresMax: 10 }, logger }));
      },
    });
    gateway = await listenOn(app);
  }

  beforeEach(async () => {
    reached = 0;
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    upstream = await listenOn((req, res) => {
      req.resume();
      req.on('end', () => {
        reached += 1;
        answer(res);
      });
    });
    await startGateway(upstream.url);
  });

  afterEach(async () => {
    shutdownUpstreamClients(upstreams);
    await Promise.all([gateway.close(), upstream.close()]);
  });

  test('when the upstream answers CSV or its own 5xx envelope, then the partner gets the status, the exact bytes and the headers, minus the ones the gateway owns', async () => {
    const csv = 'postedAt,amount\r\n2026-11-01,"1,000.00"\r\n';
    answer = (res) => res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'x-next-cursor': 'c2', 'x-powered-by': 'upstream' }).end(csv);
    const relayed = await fetch(`${gateway.url}/api/v1/partner/v1/statement?format=csv`, { headers: { accept: 'text/csv' } });
    expect([relayed.status, relayed.headers.get('content-type'), relayed.headers.get('x-next-cursor'), relayed.headers.get('x-powered-by')]).toEqual([200, 'text/csv; charset=utf-8', 'c2', null]);
    expect(await relayed.text()).toBe(csv);

    const envelope = '{"success":false,"code":"PKC_7004","message":"from the upstream",  "spaced":1.50}';
    answer = (res) => res.writeHead(504, { 'content-type': 'application/json' }).end(envelope);
    const failed = await fetch(`${gateway.url}/api/v1/partner/v1/statement`);
    expect([failed.status, await failed.text()]).toEqual([504, envelope]);
  });

  test('when the answer is 2 MB it is relayed whole; one byte more and the partner gets 503 PKC_7003', async () => {
    const twoMegabytes = 2 * 1024 * 1024;
    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(twoMegabytes - 2)}"`);
    const whole = await fetch(`${gateway.url}/api/v1/partner/v1/disbursement/bulk/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([whole.status, (await whole.arrayBuffer()).byteLength]).toEqual([200, twoMegabytes]);

    answer = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(`"${'x'.repeat(twoMegabytes - 1)}"`);
    const tooLarge = await fetch(`${gateway.url}/api/v1/partner/v1/disbursement/bulk/quote`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([tooLarge.status, await tooLarge.json()]).toEqual([503, { success: false, code: 'PKC_7003', message: unavailableMessage }]);
  });

  test('when the upstream does not answer within the route deadline, then 503 PKC_7003 just after it; on the token endpoint with error temporarily_unavailable', async () => {
    answer = () => undefined;
    const startedAt = Date.now();
    const slow = await fetch(`${gateway.url}/api/v1/partner/v1/statement`);
    expect([slow.status, await slow.json()]).toEqual([503, { success: false, code: 'PKC_7003', message: unavailableMessage }]);
    expect(Date.now() - startedAt).toBeLessThan(1_500);

    const token = await fetch(`${gateway.url}/api/v1/partner/auth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' });
    expect([token.status, await token.json()]).toEqual([503, { error: 'temporarily_unavailable', success: false, code: 'PKC_7003', message: unavailableMessage }]);
  });

  test('when nobody listens, then 503 PKC_7003', async () => {
    shutdownUpstreamClients(upstreams);
    await gateway.close();
    await startGateway(await closedPortUrl());

    const refused = await fetch(`${gateway.url}/api/v1/partner/v1/statement`);
    expect([refused.status, await refused.json()]).toEqual([503, { success: false, code: 'PKC_7003', message: unavailableMessage }]);
  });

  test('when the upstream keeps dropping the connection, then 503 PKC_7003 each time, and once its breaker opens it is no longer tried', async () => {
    answer = (res) => res.socket?.destroy();

    for (let attempt = 0; attempt < 5; attempt += 1) {
      const dropped = await fetch(`${gateway.url}/api/v1/partner/v1/statement`);
      expect([dropped.status, await dropped.json()]).toEqual([503, { success: false, code: 'PKC_7003', message: unavailableMessage }]);
    }
    expect(reached).toBe(breaker.volumeThreshold);
  });
});
