import { connectBus, type Bus } from '@pwa/bus';
import { createCircuitBreakerStates } from '@pwa/http';
import { createLogger } from '@pwa/logging';
import { breakerSettingsOf } from '@pwa/config';
import {
  flushAndStopRelay,
  prepareService,
  startServiceOutboxRelay,
  stopInOrder,
  type HostedService,
  type PreparedService,
  type ServiceHostParts,
  type ShutdownSequence,
} from '@pwa/runtime';
import type { DisbursementsConfig } from './config';
import { createDisbursementMetrics, type DisbursementServiceMetrics } from './http/disbursement-metrics';
import { mountDisbursementRoutes } from './http/disbursement-routes';
import { disbursementsMigrationDirectories, disbursementsSchema } from './service-paths';
import { createQuotesClient } from './upstream/quotes-client';
import { createWalletClient } from './upstream/wallet-client';
import { startSettlementSweep, type SettlementSweep } from './workers/settlement-sweep';
import { bulkQuotePath, mountBulkRoutes } from './http/bulk-routes';
import { startBulkProcessor, type BulkProcessor } from './workers/bulk-processor';
import { subscribeToWalletEvents } from './events/wallet-events';

export { disbursementsSchema };

export interface DisbursementsService extends HostedService {
  sweep: SettlementSweep;
  bulkProcessor: BulkProcessor;
}

/** The largest bulk quote body: 1,000 items with the longest texts the contract allows. */
const bulkQuoteBodyLimit = '2mb';

/** How long one pass of the bulk processor posts batches before yielding to the next tick (about ten batches). */
const bulkPassBudgetMs = 2_000;

/** Margin between the last moment a request can still act on a disbursement and the sweep touching it. */
const sweepMarginMs = 5_000;

/**
 * Starts disbursements: migrations, the bus, the transfer and status endpoints with their quotes and
 * wallet clients (deadlines and circuit breakers), the consumer of the wallet's reversals, the
 * outbox relay and the settlement sweep.
 */
export async function startDisbursementsService(config: Readonly<DisbursementsConfig>): Promise<DisbursementsService> {
  const logger = createLogger({ service: 'disbursements', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const breakerStates = createCircuitBreakerStates();
  const breaker = breakerSettingsOf(config);
  const watchBreaker = breakerStates.watch;
  const quotes = createQuotesClient({ baseUrl: config.QUOTES_URL, timeoutMs: config.QUOTES_TIMEOUT_MS, breaker, watchBreaker }, logger);
  const wallet = createWalletClient({ baseUrl: config.WALLET_URL, cancelTimeoutMs: config.WALLET_CANCEL_TIMEOUT_MS, breaker, watchBreaker }, logger);
  const shutdownClients = (): void => {
    quotes.shutdown();
    wallet.shutdown();
  };
  let bus: Bus;
  try {
    bus = await connectBus({ url: config.AMQP_URL, hosts: config.AMQP_HOSTS, exchange: config.BUS_EXCHANGE, serviceName: 'disbursements', logger });
  } catch (error) {
    shutdownClients();
    throw error;
  }
  let prepared: PreparedService | undefined;
  // The routes are mounted before the processor starts (it needs the hosted pool); they wake it through this.
  const processorHolder: { processor?: BulkProcessor } = {};
  let metrics: DisbursementServiceMetrics;
  let hosted: HostedService & ServiceHostParts;
  try {
    prepared = await prepareService({
      name: 'disbursements',
      schema: disbursementsSchema,
      migrationDirectories: disbursementsMigrationDirectories,
      env: config,
      port: config.PORT,
      logger,
    });
    breakerStates.register(prepared.registry);
    metrics = createDisbursementMetrics(prepared.registry, prepared.pool);
    const routeDependencies = { pool: prepared.pool, quotes, wallet, logger, budgetMs: config.DISBURSEMENT_BUDGET_MS, metrics };
    const bulkDependencies = { pool: prepared.pool, quotes, logger, wakeProcessor: () => processorHolder.processor?.wake() };
    hosted = await prepared.listen({
      // The bulk quote carries up to 1,000 items (the gateway's limit for that route is the same).
      largeJsonBody: { limit: bulkQuoteBodyLimit, appliesTo: (req) => req.path === bulkQuotePath },
      routes: (app) => {
        mountBulkRoutes(app, bulkDependencies);
        mountDisbursementRoutes(app, routeDependencies);
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
  try {
    // The operator's reversals (wallet.disbursement_reversed, decision 0063), once the pool serves.
    await subscribeToWalletEvents(bus, config.BUS_EXCHANGE, { pool: hosted.pool, logger });
  } catch (error) {
    await hosted.stop();
    shutdownClients();
    await bus.close();
    throw error;
  }
  const relay = startServiceOutboxRelay({ context: hosted, bus, config, startDelayMs: config.OUTBOX_RELAY_START_DELAY_MS });
  const sweep = startSettlementSweep(
    { pool: hosted.pool, wallet, logger },
    {
      intervalMs: config.SETTLEMENT_SWEEP_INTERVAL_MS,
      staleAfterMs: config.DISBURSEMENT_BUDGET_MS + config.WALLET_CANCEL_TIMEOUT_MS + sweepMarginMs,
      onSweepFinished: () => metrics.settlementSweepFinished(),
    },
  );
  const processor = startBulkProcessor(
    {
      pool: hosted.pool,
      wallet,
      logger,
      settings: { batchItemsMax: config.BULK_BATCH_ITEMS, batchTimeoutMs: config.BULK_BATCH_TIMEOUT_MS, leaseMs: config.BULK_LEASE_MS },
    },
    { intervalMs: config.BULK_PROCESSOR_INTERVAL_MS, passBudgetMs: bulkPassBudgetMs, onPassFinished: (settled) => metrics.bulkPassFinished(settled) },
  );
  processorHolder.processor = processor;
  // Transfers in flight (up to budget + cancellation), the sweep and the bulk processor's batch in
  // flight finish first; their events then go out in the relay's last pass.
  const shutdownSteps: ShutdownSequence = [
    [
      { name: 'http listener', run: hosted.closeListener },
      { name: 'settlement sweep', run: () => sweep.stop() },
      { name: 'bulk processor', run: () => processor.stop() },
    ],
    { name: 'outbox relay: last pass', run: () => flushAndStopRelay(relay) },
    { name: 'rabbitmq', run: () => bus.close() },
    { name: 'postgres pool', run: hosted.closePool },
    { name: 'upstream clients', run: shutdownClients },
  ];
  return { ...hosted, sweep, bulkProcessor: processor, shutdownSteps, stop: stopInOrder(shutdownSteps, logger) };
}
