import { Counter } from 'prom-client';
import type { AuditMetrics } from '@pwa/audit';
import { isDatabaseUnavailable } from '@pwa/db';
import { createApp, createHttpMetrics, listen, servedCertificateObserver } from '@pwa/http';
import { createLogger, type Logger } from '@pwa/logging';
import { closeRedis, connectRedis, isRedisUnavailable, redisSentinelOf } from '@pwa/redis';
import { databaseAndRedisReadiness, prepareService, stopInOrder, type HostedService, type PreparedService } from '@pwa/runtime';
import { listenConsole, requireForwardedHttps, type PlainHttpOutcome } from '@pwa/web-auth';
import type { DashboardConfig } from './config';
import { bulkUploadBodyLimit } from './http/bulk-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { mountDashboardRoutes } from './http/route-table';
import { registerDashboardMetrics } from './service-metrics';
import { dashboardMigrationDirectories, dashboardSchema } from './service-paths';
import { createInvitationMailer } from './upstream/invitation-mailer';
import { createPartnerApi } from './upstream/partner-api';
import { partnerWindowsOf } from './wiring/partner-windows';
import { peopleDependenciesOf } from './wiring/people-dependencies';

/**
 * Starts the partner dashboard: migrations (members, invitations, factors, the partner audit log),
 * Redis for sessions and the sign-in throttle, the dashboard API and pages, and its listener (HTTPS
 * itself, or plain behind a TLS-terminating ingress), as the back-office does (decision 0067).
 * Readiness needs PostgreSQL and Redis: no request can be served without its session. The internal
 * port's /metrics carries its sign-in refusal and audit-chain gauges (service-metrics.ts).
 */
export async function startDashboardService(config: Readonly<DashboardConfig>, options: { logger?: Logger } = {}): Promise<HostedService> {
  const logger = options.logger ?? createLogger({ service: 'dashboard', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const redis = connectRedis({ url: config.REDIS_URL, sentinel: redisSentinelOf(config), commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, logger });
  const partnerApi = createPartnerApi(config);
  let prepared: PreparedService | undefined;
  let ownMetrics: AuditMetrics | undefined;
  try {
    prepared = await prepareService({ name: 'dashboard', schema: dashboardSchema, migrationDirectories: dashboardMigrationDirectories, env: config, port: config.PORT, logger });
    const pool = prepared.pool;
    const mailer = config.DASHBOARD_SMTP_URL === undefined ? undefined : createInvitationMailer({ url: config.DASHBOARD_SMTP_URL, from: config.DASHBOARD_SMTP_FROM, timeoutMs: config.DASHBOARD_SMTP_TIMEOUT_MS }, logger);
    const partnerWindows = partnerWindowsOf(config, redis, logger);
    const countPartnerRequest = async (partnerId: string, requestId: string | null) => {
      const partner = await partnerApi.partnerOf(partnerId, requestId);
      return partnerWindows.count(partnerId, partner.rateLimitPerMinute ?? config.DASHBOARD_RATE_LIMIT_PER_MINUTE);
    };
    const deps = { ...peopleDependenciesOf(config, pool, redis), countPartnerRequest, ...(mailer === undefined ? {} : { mailer }) };
    const consoleOrigin = new URL(config.DASHBOARD_PUBLIC_URL).origin;
    const metrics = createHttpMetrics('dashboard');
    const plainHttp = new Counter({
      name: 'dashboard_plain_http_requests_total',
      help: 'Dashboard requests that did not arrive over HTTPS, by what they got: redirected to the https address, or refused',
      labelNames: ['outcome'] as const,
      registers: [metrics.registry],
    });
    for (const outcome of ['redirected', 'refused'] as const) plainHttp.inc({ outcome }, 0);
    ownMetrics = registerDashboardMetrics(metrics.registry, pool, logger);
    const onPlain = (outcome: PlainHttpOutcome): void => plainHttp.inc({ outcome });
    const listenerSettings = { ...config, consoleOrigin, consoleName: 'the dashboard' };
    // The public port serves people only: the probes and Prometheus use the internal port (/metrics is never on the internet).
    const { app } = createApp({
      serviceName: 'dashboard',
      logger,
      metrics,
      mountOperationalRoutes: false,
      isDependencyUnavailable: (error) => isDatabaseUnavailable(error) || isRedisUnavailable(error),
      largeJsonBody: bulkUploadBodyLimit,
      routes: (routes) => {
        routes.set('trust proxy', config.DASHBOARD_TRUSTED_PROXY_HOPS);
        if (config.TLS_MODE === 'proxy' && config.DASHBOARD_TRUSTED_PROXY_HOPS > 0) routes.use(requireForwardedHttps(listenerSettings, onPlain));
        mountDashboardRoutes(routes, { deps, consoleOrigin, partnerApi, environment: config.ENVIRONMENT });
      },
    });
    // The internal port: the back-office's first-admin invitations, the probes and /metrics; never the public port.
    const { app: internalApp } = createApp({
      serviceName: 'dashboard',
      logger,
      metrics,
      readinessChecks: databaseAndRedisReadiness(pool, redis),
      isDependencyUnavailable: isDatabaseUnavailable,
      routes: (routes) => mountInternalRoutes(routes, { pool, publicUrl: config.DASHBOARD_PUBLIC_URL, partnerExists: (partnerId) => partnerApi.partnerExists(partnerId), ...(mailer === undefined ? {} : { mailer }) }),
    });
    const internalListener = await listen(internalApp, config.DASHBOARD_INTERNAL_PORT, config.DASHBOARD_INTERNAL_HOST);
    const listener = await listenConsole(listenerSettings, app, onPlain, servedCertificateObserver(metrics.registry, logger)).catch(async (error: unknown) => {
      await internalListener.close();
      throw error;
    });
    logger.info({ port: listener.port, host: config.HOST, internalPort: internalListener.port, tlsMode: config.TLS_MODE, consoleOrigin }, 'listening');
    const closePool = prepared.closePool;
    const stopMetrics = ownMetrics.stop;
    return {
      name: 'dashboard',
      logger,
      pool,
      registry: metrics.registry,
      port: listener.port,
      stop: stopInOrder(
        [
          { name: 'http listener', run: () => listener.close() },
          { name: 'internal listener', run: () => internalListener.close() },
          { name: 'audit chain walk', run: () => Promise.resolve(stopMetrics()) },
          { name: 'postgres pool', run: closePool },
          { name: 'redis', run: () => closeRedis(redis) },
          { name: 'partner api clients', run: () => Promise.resolve(partnerApi.shutdown()) },
          { name: 'invitation mailer', run: () => Promise.resolve(mailer?.close()) },
        ],
        logger,
      ),
    };
  } catch (error) {
    ownMetrics?.stop();
    await prepared?.closePool();
    await closeRedis(redis);
    partnerApi.shutdown();
    throw error;
  }
}
