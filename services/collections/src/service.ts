import { connectBus, type Bus } from '@pwa/bus';
import { createCircuitBreakerStates, type UpstreamSettings } from '@pwa/http';
import { createLogger } from '@pwa/logging';
import { breakerSettingsOf } from '@pwa/config';
import {
  flushAndStopRelay,
  prepareService,
  startPeriodicTask,
  startServiceOutboxRelay,
  stopInOrder,
  type HostedService,
  type PeriodicTask,
  type PreparedService,
  type ServiceHostParts,
  type ShutdownSequence,
} from '@pwa/runtime';
import type { CollectionsConfig } from './config';
import { mountAppRoutes } from './http/app-routes';
import { createCollectionMetrics } from './http/collection-metrics';
import { mountPartnerRoutes } from './http/partner-routes';
import { mountRefundRoutes } from './http/refund-routes';
import { mountSandboxRoutes } from './http/sandbox-routes';
import { collectionsMigrationDirectories, collectionsSchema } from './service-paths';
import { createQuoteConsumer } from './upstream/quotes-client';
import { createWallet } from './upstream/wallet-client';
import type { CollectionsDependencies } from './use-cases/dependencies';
import { sweepExpiredCollections } from './workers/expiry-sweeper';
import { recoverPendingPostings, type RecoverySettings } from './workers/posting-recovery';
import { recoverPendingRefunds } from './workers/refund-recovery';
import { resolveTestPhoneCollections } from './workers/sandbox-auto-resolver';

export { collectionsSchema };

/**
 * Starts collections: migrations, the partner, app and (sandbox only) simulation routes, the
 * quotes and wallet clients with deadline and breaker, the outbox relay, the expiry sweeper, the
 * posting and refund recovery workers and (sandbox only) the test phones' auto-resolver.
 */
export async function startCollectionsService(config: Readonly<CollectionsConfig>): Promise<HostedService> {
  const logger = createLogger({ service: 'collections', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const breakerStates = createCircuitBreakerStates();
  const upstream = (baseUrl: string): UpstreamSettings => ({
    baseUrl,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    breaker: breakerSettingsOf(config),
    watchBreaker: breakerStates.watch,
  });
  const quotes = createQuoteConsumer(upstream(config.QUOTES_URL), logger);
  const wallet = createWallet(upstream(config.WALLET_URL), logger);
  const shutdownClients = (): void => {
    quotes.shutdown();
    wallet.shutdown();
  };
  let bus: Bus;
  try {
    bus = await connectBus({ url: config.AMQP_URL, hosts: config.AMQP_HOSTS, exchange: config.BUS_EXCHANGE, serviceName: 'collections', logger });
  } catch (error) {
    shutdownClients();
    throw error;
  }
  const sandbox = config.ENVIRONMENT === 'sandbox';
  let prepared: PreparedService | undefined;
  let dependencies: CollectionsDependencies;
  let hosted: HostedService & ServiceHostParts;
  try {
    prepared = await prepareService({
      name: 'collections',
      schema: collectionsSchema,
      migrationDirectories: collectionsMigrationDirectories,
      env: config,
      port: config.PORT,
      logger,
    });
    breakerStates.register(prepared.registry);
    const metrics = createCollectionMetrics(prepared.registry, prepared.pool);
    dependencies = {
      pool: prepared.pool,
      logger,
      quotes,
      wallet,
      metrics,
      settings: {
        approvalWindowSeconds: config.COLLECTION_APPROVAL_WINDOW_SECONDS,
        // Never before the approver's own posting attempt can have timed out.
        recoveryDelayMs: Math.max(config.RECOVERY_DELAY_MS, config.UPSTREAM_TIMEOUT_MS + 1_000),
      },
    };
    hosted = await prepared.listen({
      routes: (app) => {
        mountPartnerRoutes(app, dependencies, metrics);
        mountRefundRoutes(app, dependencies);
        mountAppRoutes(app, dependencies);
        if (sandbox) mountSandboxRoutes(app, dependencies);
      },
      // Ready on PostgreSQL alone: requests never wait on the broker (events wait in the outbox
      // while it is away, and bus_connected says so), so a broker outage must not empty the Service.
    });
  } catch (error) {
    await prepared?.closePool();
    shutdownClients();
    await bus.close();
    throw error;
  }
  const relay = startServiceOutboxRelay({ context: hosted, bus, config, startDelayMs: config.OUTBOX_RELAY_START_DELAY_MS });
  const recovery: RecoverySettings = {
    batchSize: config.RECOVERY_BATCH_SIZE,
    delayMs: config.RECOVERY_DELAY_MS,
    delayMsMax: config.RECOVERY_DELAY_MS_MAX,
    postingAttemptsMax: config.RECOVERY_POSTING_ATTEMPTS_MAX,
  };
  const tasks: PeriodicTask<void>[] = [
    startPeriodicTask({
      name: 'expiry-sweeper',
      intervalMs: config.EXPIRY_SWEEP_INTERVAL_MS,
      run: async () => {
        await sweepExpiredCollections(dependencies, config.EXPIRY_SWEEP_BATCH_SIZE, config.EXPIRY_SWEEP_BATCHES_MAX);
      },
      logger,
    }),
    startPeriodicTask({
      name: 'posting-recovery',
      intervalMs: config.RECOVERY_INTERVAL_MS,
      run: () => recoverPendingPostings(dependencies, recovery),
      logger,
    }),
    startPeriodicTask({
      name: 'refund-recovery',
      intervalMs: config.RECOVERY_INTERVAL_MS,
      run: () => recoverPendingRefunds(dependencies, recovery),
      logger,
    }),
  ];
  if (sandbox) {
    tasks.push(
      startPeriodicTask({
        name: 'sandbox-auto-resolver',
        intervalMs: config.SANDBOX_AUTO_RESOLVE_INTERVAL_MS,
        run: () => resolveTestPhoneCollections(dependencies, config.SANDBOX_AUTO_RESOLVE_DELAY_MS),
        logger,
      }),
    );
  }
  // Requests in flight and worker ticks finish first; their events then go out in the relay's last pass.
  const shutdownSteps: ShutdownSequence = [
    [{ name: 'http listener', run: hosted.closeListener }, ...tasks.map((task, index) => ({ name: `periodic task ${index + 1}`, run: () => task.stop() }))],
    { name: 'outbox relay: last pass', run: () => flushAndStopRelay(relay) },
    { name: 'rabbitmq', run: () => bus.close() },
    { name: 'postgres pool', run: hosted.closePool },
    { name: 'upstream clients', run: shutdownClients },
  ];
  return { ...hosted, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
}
