import { readFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { Counter } from 'prom-client';
import { isDatabaseUnavailable, pingDatabase } from '@pwa/db';
import { errorEnvelope } from '@pwa/errors';
import { createApp, createHttpMetrics, listen, listenTlsDispatcher, sendErrorEnvelope } from '@pwa/http';
import { createLogger, type Logger } from '@pwa/logging';
import { closeRedis, connectRedis } from '@pwa/redis';
import { prepareService, startPeriodicTask, stopInOrder, type HostedService, type PreparedService } from '@pwa/runtime';
import type { BackofficeConfig } from './config';
import { mountConsoleRoutes } from './http/console-route-table';
import { registerBackofficeMetrics } from './service-metrics';
import { backofficeMigrationDirectories, backofficeSchema } from './service-paths';
import { executeApprovedBacklog } from './use-cases/execute-approved-request';
import { expireDueRequests } from './use-cases/four-eyes-requests';
import { createAdminClients } from './wiring/admin-clients';
import { peopleDependenciesOf } from './wiring/people-dependencies';

/** What plain HTTP may still reach when this process terminates TLS: the probes and Prometheus, nothing of a person's. */
const operationalPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Starts the back-office: migrations (its operators, approval requests and audit log), Redis for
 * sessions and the sign-in throttle, the console API for people, and its listener: HTTPS itself
 * (TLS_MODE terminate) or plain HTTP behind an internal TLS-terminating ingress (proxy); decision
 * 0067. Readiness needs PostgreSQL and Redis: no request can be served without its session.
 */
export async function startBackofficeService(config: Readonly<BackofficeConfig>, options: { logger?: Logger } = {}): Promise<HostedService> {
  const logger = options.logger ?? createLogger({ service: 'backoffice', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const redis = connectRedis({ url: config.REDIS_URL, commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger });
  const upstream = createAdminClients(config, logger);
  let prepared: PreparedService | undefined;
  try {
    prepared = await prepareService({ name: 'backoffice', schema: backofficeSchema, migrationDirectories: backofficeMigrationDirectories, env: config, port: config.PORT, logger });
    const deps = peopleDependenciesOf(config, prepared.pool, redis);
    const consoleOrigin = new URL(config.BACKOFFICE_PUBLIC_URL).origin;
    const pool = prepared.pool;
    const metrics = createHttpMetrics('backoffice');
    const plainHttp = new Counter({
      name: 'backoffice_plain_http_requests_total',
      help: 'Console requests that did not arrive over HTTPS, by what they got: redirected to the https address, or refused',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    // Both series exist from the start, so a rate over them is 0 rather than absent.
    for (const outcome of ['redirected', 'refused'] as const) plainHttp.inc({ outcome }, 0);
    const ownMetrics = registerBackofficeMetrics(metrics.registry, pool, logger);
    // Approved requests the wallet has not confirmed (an outage, a crash between approval and call) are sent again with the same id.
    const backlog = startPeriodicTask({
      name: 'approved-requests',
      intervalMs: config.BACKOFFICE_SWEEP_INTERVAL_MS,
      logger,
      run: () => executeApprovedBacklog(pool, upstream, 100, (requestId, error) => logger.warn({ err: error, requestId }, 'approved request not executed; it is sent again at the next sweep')),
    });
    const expiry = startPeriodicTask({ name: 'approval-expiry', intervalMs: config.BACKOFFICE_SWEEP_INTERVAL_MS, logger, run: () => expireDueRequests(pool) });
    const onPlain = (outcome: 'redirected' | 'refused'): void => plainHttp.inc({ outcome });
    const { app } = createApp({
      serviceName: 'backoffice',
      logger,
      metrics,
      readinessChecks: [
        { name: 'postgres', check: () => pingDatabase(pool) },
        { name: 'redis', check: async () => void (await redis.ping()) },
      ],
      isDependencyUnavailable: isDatabaseUnavailable,
      routes: (routes) => {
        routes.set('trust proxy', config.BACKOFFICE_TRUSTED_PROXY_HOPS);
        // Behind a trusted ingress, a console request that reached it over plain HTTP is sent to https, never served.
        if (config.TLS_MODE === 'proxy' && config.BACKOFFICE_TRUSTED_PROXY_HOPS > 0) routes.use(requireForwardedHttps(consoleOrigin, onPlain));
        mountConsoleRoutes(routes, { deps, consoleOrigin, upstream, wakeBacklog: () => backlog.wake(), logger });
      },
    });
    let listener: { port: number; close: () => Promise<void> };
    try {
      listener = await listenConsole(config, app, plainHandler(app, consoleOrigin, onPlain));
    } catch (error) {
      await Promise.all([backlog.stop(), expiry.stop()]);
      throw error;
    }
    logger.info({ port: listener.port, host: config.HOST, tlsMode: config.TLS_MODE, consoleOrigin }, 'listening');
    const closePool = prepared.closePool;
    return {
      name: 'backoffice',
      logger,
      pool,
      registry: metrics.registry,
      port: listener.port,
      stop: stopInOrder(
        [
          [
            { name: 'approved-requests sweep', run: () => backlog.stop() },
            { name: 'approval-expiry sweep', run: () => expiry.stop() },
            { name: 'http listener', run: () => listener.close() },
          ],
          { name: 'metrics', run: () => Promise.resolve(ownMetrics.stop()) },
          { name: 'postgres pool', run: closePool },
          { name: 'redis', run: () => closeRedis(redis) },
          { name: 'upstream clients', run: () => Promise.resolve(upstream.shutdown()) },
        ],
        logger,
      ),
    };
  } catch (error) {
    await prepared?.closePool();
    await closeRedis(redis);
    upstream.shutdown();
    throw error;
  }
}

/** The console's listener: HTTPS and plain on one port (terminate), or plain behind the ingress (proxy). */
async function listenConsole(config: Readonly<BackofficeConfig>, app: RequestListener, plain: RequestListener): Promise<{ port: number; close: () => Promise<void> }> {
  if (config.TLS_MODE === 'proxy') return listen(app, config.PORT, config.HOST);
  const dispatcher = await listenTlsDispatcher(
    {
      tls: { cert: readTlsFile('TLS_CERT_FILE', config.TLS_CERT_FILE), key: readTlsFile('TLS_KEY_FILE', config.TLS_KEY_FILE) },
      secureHandler: app,
      plainHandler: plain,
      requestTimeoutMs: 60_000,
      stopGraceMs: Math.max(1_000, config.SHUTDOWN_TIMEOUT_MS - 1_000),
    },
    config.PORT,
    config.HOST,
  );
  return { port: dispatcher.port, close: dispatcher.stop };
}

/** The config schema requires both files in terminate mode; this keeps the types honest. */
function readTlsFile(name: string, path: string | undefined): Buffer {
  if (path === undefined) throw new Error(`${name} is required when TLS_MODE is terminate`);
  return readFileSync(path);
}

/**
 * Plain HTTP on the HTTPS port: the probes and Prometheus get /healthz, /readyz and /metrics; a
 * browser that typed http:// is redirected (GET, HEAD) to the same path at the console's https
 * address, never to the Host it sent; anything else is refused unread, so a form or a session
 * cookie sent in clear goes nowhere.
 */
function plainHandler(app: RequestListener, consoleOrigin: string, onPlain: (outcome: 'redirected' | 'refused') => void): RequestListener {
  return (req, res) => {
    const path = pathOf(req);
    if (path !== undefined && operationalPaths.has(path) && (req.method === 'GET' || req.method === 'HEAD')) {
      app(req, res);
      return;
    }
    answerPlainHttp(req, res, consoleOrigin, onPlain);
  };
}

function pathOf(req: IncomingMessage): string | undefined {
  const target = req.url ?? '';
  if (!target.startsWith('/')) return undefined;
  return target.split('?')[0];
}

function answerPlainHttp(req: IncomingMessage, res: ServerResponse, consoleOrigin: string, onPlain: (outcome: 'redirected' | 'refused') => void): void {
  const target = req.url ?? '/';
  if ((req.method === 'GET' || req.method === 'HEAD') && target.startsWith('/') && !target.startsWith('//')) {
    onPlain('redirected');
    res.writeHead(308, { Location: `${consoleOrigin}${target}`, 'Content-Length': '0', 'Cache-Control': 'no-store', Connection: 'close' });
    res.end();
    return;
  }
  onPlain('refused');
  const body = JSON.stringify(errorEnvelope('PKC_6005', httpsRequiredMessage(consoleOrigin)));
  res.writeHead(403, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', Connection: 'close' });
  res.end(body);
}

function httpsRequiredMessage(consoleOrigin: string): string {
  return `HTTPS is required: the back-office does not accept plain HTTP. Open ${consoleOrigin} instead.`;
}

/**
 * Proxy mode behind a trusted ingress: express's req.protocol reads X-Forwarded-Proto from the
 * trusted hops only, so a console request the browser sent over plain HTTP is redirected (GET,
 * HEAD) or refused, and a client reaching the pod directly cannot claim HTTPS by a header alone.
 */
function requireForwardedHttps(consoleOrigin: string, onPlain: (outcome: 'redirected' | 'refused') => void): RequestHandler {
  return (req, res, next) => {
    if (req.protocol === 'https') {
      next();
      return;
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      onPlain('redirected');
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(308, `${consoleOrigin}${req.originalUrl.startsWith('/') && !req.originalUrl.startsWith('//') ? req.originalUrl : '/'}`);
      return;
    }
    onPlain('refused');
    res.setHeader('Connection', 'close');
    sendErrorEnvelope(res, 403, 'PKC_6005', httpsRequiredMessage(consoleOrigin));
  };
}
