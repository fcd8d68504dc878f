import path from 'node:path';
import { connectBus, type Bus } from '@pwa/bus';
import { createPool, isDatabaseUnavailable, migrate, pingDatabase, type Pool } from '@pwa/db';
import { createApp, createHttpMetrics, listen } from '@pwa/http';
import { createLogger, type Logger } from '@pwa/logging';
import { stopInOrder, type HostedService, type ShutdownSequence } from '@pwa/runtime';
import { parseSealingKey } from '@pwa/sealing';
import type { WebhooksConfig } from './config';
import { startDeliveryWorker, type DeliveryWorker } from './delivery/delivery-worker';
import { createWebhookMetrics } from './delivery/webhook-metrics';
import { subscribeToEvents } from './events/subscriptions';
import { mountPartnerRoutes } from './http/partner-routes';
import { authPartnerDirectory } from './partner-directory/auth-directory-client';
import { startDirectorySyncLoop, type DirectorySyncLoop } from './partner-directory/directory-sync-loop';
import { rebuildPartnerDirectory } from './use-cases/partner-directory-sync';
import type { WebhooksDependencies } from './use-cases/dependencies';

export const webhooksSchema = 'webhooks';
export const webhooksMigrationsDirectory = path.join(__dirname, '..', 'migrations');

/**
 * Starts webhooks: migrations, the partner routes, the delivery worker, then the two event
 * consumers. It hosts itself (rather than through hostService) because its delivery metrics must
 * be on the same registry as the HTTP ones that /metrics serves.
 */
export async function startWebhooksService(config: Readonly<WebhooksConfig>): Promise<HostedService> {
  const logger = createLogger({ service: 'webhooks', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const sealingKeys = [config.WEBHOOK_SECRET_SEALING_KEY, config.WEBHOOK_SECRET_SEALING_KEY_PREVIOUS]
    .filter((key): key is string => key !== undefined)
    .map(parseSealingKey);
  const applied = await migrate({ databaseUrl: config.MIGRATION_DATABASE_URL ?? config.DATABASE_URL, schema: webhooksSchema, directory: webhooksMigrationsDirectory, lockTimeoutMs: config.MIGRATION_LOCK_TIMEOUT_MS });
  if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'webhooks', schema: webhooksSchema, maxConnections: config.DATABASE_POOL_MAX });
  let bus: Bus | undefined;
  let worker: DeliveryWorker | undefined;
  let directorySync: DirectorySyncLoop | undefined;
  try {
    const httpMetrics = createHttpMetrics('webhooks');
    bus = await connectBus({ url: config.AMQP_URL, exchange: config.BUS_EXCHANGE, serviceName: 'webhooks', logger, registry: httpMetrics.registry });
    const connectedBus = bus;
    const dependencies: WebhooksDependencies = {
      pool,
      logger,
      metrics: createWebhookMetrics(httpMetrics.registry, pool),
      sealingKeys,
      partnerDirectory: authPartnerDirectory(config.AUTH_URL, config.PARTNER_DIRECTORY_TIMEOUT_MS),
      settings: {
        attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
        retry: { delaysMs: config.WEBHOOK_RETRY_DELAYS_MS, jitterRatio: config.WEBHOOK_RETRY_JITTER_RATIO },
        target: { requireHttps: config.ENVIRONMENT === 'production', allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
        redeliverBatchMax: config.WEBHOOK_REDELIVER_BATCH_MAX,
      },
      wakeWorker: () => worker?.wake(),
    };
    const { app } = createApp({
      serviceName: 'webhooks',
      logger,
      metrics: httpMetrics,
      // Ready on PostgreSQL alone: the partner routes and the delivery worker read and write only
      // PostgreSQL; while the broker is away new events wait in the producers' outboxes and the
      // consumers resume on reconnect (bus_connected says so).
      readinessChecks: [{ name: 'postgres', check: () => pingDatabase(pool) }],
      isDependencyUnavailable: isDatabaseUnavailable,
      routes: (expressApp) => mountPartnerRoutes(expressApp, dependencies),
    });
    worker = startDeliveryWorker(
      dependencies,
      {
        pollIntervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
        concurrencyMax: config.WEBHOOK_CONCURRENCY_MAX,
        partnerConcurrencyMax: config.WEBHOOK_PARTNER_CONCURRENCY_MAX,
        leaseMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS + config.WEBHOOK_LEASE_MARGIN_MS,
      },
      logger,
    );
    await subscribeToEvents(connectedBus, config.BUS_EXCHANGE, dependencies);
    // After the queues exist, so every partner change is either in the directory's answer or in a
    // partner event that is on its way.
    directorySync = startDirectorySyncLoop(() => rebuildPartnerDirectory(dependencies), config.PARTNER_DIRECTORY_RETRY_MS, logger);
    const runningSync = directorySync;
    const server = await listen(app, config.PORT, config.HOST);
    logger.info({ port: server.port, host: config.HOST, allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS }, 'listening');
    const running = worker;
    // The listener, the consumers and the worker stop taking work together and finish what they
    // hold (requests, handlers, attempts in flight); the pool closes after all of them.
    const shutdownSteps: ShutdownSequence = [
      [
        { name: 'http listener', run: () => server.close() },
        { name: 'rabbitmq consumers', run: () => connectedBus.close() },
        { name: 'delivery worker', run: () => running.stop() },
        { name: 'partner directory sync', run: () => runningSync.stop() },
      ],
      { name: 'postgres pool', run: () => pool.end() },
    ];
    return { name: 'webhooks', logger, pool, registry: httpMetrics.registry, port: server.port, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
  } catch (error) {
    await directorySync?.stop();
    await shutDownPartial(logger, pool, bus, worker);
    throw error;
  }
}

async function shutDownPartial(logger: Logger, pool: Pool, bus: Bus | undefined, worker: DeliveryWorker | undefined): Promise<void> {
  await worker?.stop().catch((error: unknown) => logger.warn({ err: error }, 'worker stop failed'));
  await bus?.close().catch(() => undefined);
  await pool.end().catch(() => undefined);
}
