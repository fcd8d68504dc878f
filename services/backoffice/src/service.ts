import { createLogger, type Logger } from '@pwa/logging';
import { closeRedis, connectRedis } from '@pwa/redis';
import { prepareService, startPeriodicTask, type HostedService, type PreparedService } from '@pwa/runtime';
import type { BackofficeConfig } from './config';
import { mountConsoleRoutes } from './http/console-route-table';
import { backofficeMigrationDirectories, backofficeSchema } from './service-paths';
import { executeApprovedBacklog } from './use-cases/execute-approved-request';
import { expireDueRequests } from './use-cases/four-eyes-requests';
import { createAdminClients } from './wiring/admin-clients';
import { peopleDependenciesOf } from './wiring/people-dependencies';

/**
 * Starts the back-office: migrations (its operators, approval requests and audit log), Redis for
 * sessions and the sign-in throttle, and the console API for people (set-up, sign-in, session).
 * Readiness needs PostgreSQL and Redis: no request can be served without its session.
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
    // Approved requests the wallet has not confirmed (an outage, a crash between approval and call) are sent again with the same id.
    const backlog = startPeriodicTask({
      name: 'approved-requests',
      intervalMs: config.BACKOFFICE_SWEEP_INTERVAL_MS,
      logger,
      run: () => executeApprovedBacklog(pool, upstream, 100, (requestId, error) => logger.warn({ err: error, requestId }, 'approved request not executed; it is sent again at the next sweep')),
    });
    const expiry = startPeriodicTask({ name: 'approval-expiry', intervalMs: config.BACKOFFICE_SWEEP_INTERVAL_MS, logger, run: () => expireDueRequests(pool) });
    const hosted = await prepared.listen({
      readinessChecks: [{ name: 'redis', check: async () => void (await redis.ping()) }],
      routes: (app) => {
        app.set('trust proxy', config.BACKOFFICE_TRUSTED_PROXY_HOPS);
        mountConsoleRoutes(app, { deps, consoleOrigin, upstream, wakeBacklog: () => backlog.wake(), logger });
      },
      listeningLogFields: { consoleOrigin },
    });
    return {
      ...hosted,
      stop: async () => {
        await Promise.all([backlog.stop(), expiry.stop()]);
        await hosted.stop();
        await closeRedis(redis);
        upstream.shutdown();
      },
    };
  } catch (error) {
    await prepared?.closePool();
    await closeRedis(redis);
    upstream.shutdown();
    throw error;
  }
}
