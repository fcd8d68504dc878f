import { createCircuitBreakerStates } from '@pwa/http';
import { breakerSettingsOf } from '@pwa/config';
import { connectBus, type Bus } from '@pwa/bus';
import { createLogger, type Logger } from '@pwa/logging';
import { prepareService, stopInOrder, type HostedService, type PreparedService, type ShutdownSequence } from '@pwa/runtime';
import { parseSealingKey } from '@pwa/sealing';
import type { WebhooksConfig } from './config';
import { startDeliveryWorker, type DeliveryWorker } from './workers/delivery-worker';
import { createWebhookMetrics } from './http/webhook-metrics';
import { subscribeToEvents } from './events/subscriptions';
import { mountAdminRoutes } from './http/admin-routes';
import { mountPartnerRoutes } from './http/partner-routes';
import { authPartnerDirectory } from './upstream/auth-directory-client';
import { startDirectorySyncLoop, type DirectorySyncLoop } from './workers/directory-sync-loop';
import { startEventRetention } from './workers/event-retention';
import { rebuildPartnerDirectory } from './use-cases/partner-directory-sync';
import type { WebhooksDependencies } from './use-cases/dependencies';
import { webhooksMigrationDirectories, webhooksSchema } from './service-paths';

/**
 * Starts webhooks: migrations, the delivery worker, the two event consumers, the partner directory
 * sync, then the partner routes. Its delivery metrics and the bus's are on the registry /metrics serves.
 */
export async function startWebhooksService(config: Readonly<WebhooksConfig>): Promise<HostedService> {
  const logger = createLogger({ service: 'webhooks', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const sealingKeys = [config.WEBHOOK_SECRET_SEALING_KEY, config.WEBHOOK_SECRET_SEALING_KEY_PREVIOUS]
    .filter((key): key is string => key !== undefined)
    .map(parseSealingKey);
  const prepared = await prepareService({ name: 'webhooks', schema: webhooksSchema, migrationDirectories: webhooksMigrationDirectories, env: config, port: config.PORT, logger });
  const { pool, registry } = prepared;
  const breakerStates = createCircuitBreakerStates();
  breakerStates.register(registry);
  const partnerDirectory = authPartnerDirectory(
    { baseUrl: config.AUTH_URL, timeoutMs: config.PARTNER_DIRECTORY_TIMEOUT_MS, breaker: breakerSettingsOf(config), watchBreaker: breakerStates.watch },
    logger,
  );
  let bus: Bus | undefined;
  let worker: DeliveryWorker | undefined;
  let directorySync: DirectorySyncLoop | undefined;
  try {
    bus = await connectBus({ url: config.AMQP_URL, hosts: config.AMQP_HOSTS, exchange: config.BUS_EXCHANGE, serviceName: 'webhooks', logger, registry });
    const connectedBus = bus;
    const dependencies: WebhooksDependencies = {
      pool,
      logger,
      metrics: createWebhookMetrics(registry, pool),
      sealingKeys,
      partnerDirectory,
      settings: {
        attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
        retry: { delaysMs: config.WEBHOOK_RETRY_DELAYS_MS, jitterRatio: config.WEBHOOK_RETRY_JITTER_RATIO },
        target: { requireHttps: config.ENVIRONMENT === 'production', allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
        redeliverBatchMax: config.WEBHOOK_REDELIVER_BATCH_MAX,
      },
      wakeWorker: () => worker?.wake(),
    };
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
    const hosted = await prepared.listen({
      routes: (app) => {
        mountPartnerRoutes(app, dependencies);
        mountAdminRoutes(app, dependencies);
      },
      // Ready on PostgreSQL alone: the partner routes and the delivery worker read and write only
      // PostgreSQL; while the broker is away new events wait in the producers' outboxes and the
      // consumers resume on reconnect (bus_connected says so).
      listeningLogFields: { allowPrivateTargets: config.WEBHOOK_ALLOW_PRIVATE_TARGETS },
    });
    const running = worker;
    const retention = startEventRetention(dependencies, config.WEBHOOK_EVENT_PRUNE_INTERVAL_MS, logger);
    // The listener, the consumers and the worker stop taking work together and finish what they
    // hold (requests, handlers, attempts in flight); the pool closes after all of them.
    const shutdownSteps: ShutdownSequence = [
      [
        { name: 'http listener', run: hosted.closeListener },
        { name: 'rabbitmq consumers', run: () => connectedBus.close() },
        { name: 'delivery worker', run: () => running.stop() },
        { name: 'partner directory sync', run: () => runningSync.stop() },
        { name: 'event retention', run: () => retention.stop() },
      ],
      { name: 'auth client', run: () => Promise.resolve(partnerDirectory.shutdown()) },
      { name: 'postgres pool', run: hosted.closePool },
    ];
    return { ...hosted, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
  } catch (error) {
    await directorySync?.stop();
    partnerDirectory.shutdown();
    await shutDownPartial(logger, prepared, bus, worker);
    throw error;
  }
}

async function shutDownPartial(logger: Logger, prepared: PreparedService, bus: Bus | undefined, worker: DeliveryWorker | undefined): Promise<void> {
  await worker?.stop().catch((error: unknown) => logger.warn({ err: error }, 'worker stop failed'));
  await bus?.close().catch(() => undefined);
  await prepared.closePool().catch(() => undefined);
}
