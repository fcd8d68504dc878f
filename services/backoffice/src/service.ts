import { Counter } from 'prom-client';
import { isDatabaseUnavailable } from '@pwa/db';
import { createApp, createHttpMetrics, servedCertificateObserver } from '@pwa/http';
import { createLogger, type Logger } from '@pwa/logging';
import { closeRedis, connectRedis, isRedisUnavailable, redisSentinelOf } from '@pwa/redis';
import { databaseAndRedisReadiness, prepareService, startPeriodicTask, stopInOrder, type HostedService, type PreparedService } from '@pwa/runtime';
import { listenConsole, requireForwardedHttps } from '@pwa/web-auth';
import type { BackofficeConfig } from './config';
import { mountConsoleRoutes } from './http/console-route-table';
import { registerBackofficeMetrics } from './service-metrics';
import { backofficeMigrationDirectories, backofficeSchema } from './service-paths';
import { executeApprovedBacklog } from './use-cases/execute-approved-request';
import { expireDueRequests } from './use-cases/four-eyes-requests';
import { createAdminClients } from './wiring/admin-clients';
import { peopleDependenciesOf } from './wiring/people-dependencies';

/**
 * Starts the back-office: migrations (its operators, approval requests and audit log), Redis for
 * sessions and the sign-in throttle, the console API for people, and its listener: HTTPS itself
 * (TLS_MODE terminate) or plain HTTP behind an internal TLS-terminating ingress (proxy); decision
 * 0067. Readiness needs PostgreSQL and Redis: no request can be served without its session.
 */
export async function startBackofficeService(config: Readonly<BackofficeConfig>, options: { logger?: Logger } = {}): Promise<HostedService> {
  const logger = options.logger ?? createLogger({ service: 'backoffice', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const redis = connectRedis({ url: config.REDIS_URL, sentinel: redisSentinelOf(config), commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger });
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
    const listenerSettings = { ...config, consoleOrigin, consoleName: 'the back-office' };
    const { app } = createApp({
      serviceName: 'backoffice',
      logger,
      metrics,
      readinessChecks: databaseAndRedisReadiness(pool, redis),
      isDependencyUnavailable: (error) => isDatabaseUnavailable(error) || isRedisUnavailable(error),
      routes: (routes) => {
        routes.set('trust proxy', config.BACKOFFICE_TRUSTED_PROXY_HOPS);
        // Behind a trusted ingress, a console request that reached it over plain HTTP is sent to https, never served.
        if (config.TLS_MODE === 'proxy' && config.BACKOFFICE_TRUSTED_PROXY_HOPS > 0) routes.use(requireForwardedHttps(listenerSettings, onPlain));
        mountConsoleRoutes(routes, { deps, consoleOrigin, upstream, wakeBacklog: () => backlog.wake(), logger });
      },
    });
    let listener: { port: number; close: () => Promise<void> };
    try {
      listener = await listenConsole(listenerSettings, app, onPlain, servedCertificateObserver(metrics.registry, logger));
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
