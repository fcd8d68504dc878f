import { connectBus, type Bus } from '@pwa/bus';
import { flushAndStopRelay, prepareService, startServiceOutboxRelay, type HostedService } from '@pwa/runtime';
import { postingFaultInjectionOf, type WalletConfig } from './config';
import { walletMigrationDirectories, walletSchema } from './service-paths';
import { createLedgerMetrics } from './http/ledger-metrics';
import { mountPartnerRoutes } from './http/partner-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { mountAdminRoutes } from './http/admin-routes';
import { checkLedger } from './use-cases/check-ledger';
import { createGroupCommitter } from './use-cases/group-commit';
import { postTransfer } from './use-cases/post-transfer';
import { postTransferBatch } from './use-cases/post-transfer-batch';
import { startInvariantMonitor } from './workers/invariant-monitor';

export { walletSchema };

/**
 * Starts the wallet service: migrations of the wallet schema, the partner-facing reads, the
 * internal API and its admin routes (the back-office's approved fundings), the periodic ledger
 * invariant check and, with AMQP_URL, the outbox relay that publishes the wallet's events (the
 * operator's reversals, written by the CLI; decision 0063).
 */
export async function startWalletService(config: Readonly<WalletConfig>): Promise<HostedService> {
  const postingFaults = postingFaultInjectionOf(config);
  const prepared = await prepareService({ name: 'wallet', schema: walletSchema, migrationDirectories: walletMigrationDirectories, env: config, port: config.PORT });
  const { pool } = prepared;
  const metrics = createLedgerMetrics(prepared.registry, pool);
  const groupCommitter =
    config.WALLET_GROUP_COMMIT_MAX_ITEMS === 0
      ? undefined
      : createGroupCommitter(
          { postBatch: (batch) => postTransferBatch(pool, batch), postSingly: (request) => postTransfer(pool, request, postingFaults) },
          { itemsMax: config.WALLET_GROUP_COMMIT_MAX_ITEMS, onGroupPosted: (size) => metrics.groupPosted(size) },
        );
  const hosted = await prepared.listen({
    // A transfer batch (POST /internal/transfer-batches) carries up to 200 items of at most about
    // 2.4 kB each (700 characters of reference, referenceId and externalId at up to 3 bytes in
    // UTF-8, plus ids and amounts): 1 MB holds the largest valid batch. Every other body of the
    // wallet is far below 16 kB, and the wallet is reached on the internal network only (the
    // gateway keeps its own 16 kB limit for partners).
    jsonBodyLimit: '1mb',
    routes: (app) => {
      mountPartnerRoutes(app, pool);
      mountInternalRoutes(app, pool, { postingFaults, metrics, groupCommitter });
      mountAdminRoutes(app, pool);
    },
  });
  const events = await startEventRelay(hosted, config);
  const monitor = startInvariantMonitor({
    check: () => checkLedger(hosted.pool),
    intervalMs: config.LEDGER_INVARIANT_CHECK_INTERVAL_MS,
    onChecked: (ok) => metrics.invariantChecked(ok),
    logger: hosted.logger,
  });
  return {
    ...hosted,
    stop: async () => {
      await monitor.stop();
      // The relay's last pass reads the pool, which the host's stop closes.
      await events?.stop();
      await hosted.stop();
    },
  };
}

/**
 * The relay of the wallet's outbox, when a broker is configured. Readiness stays on PostgreSQL
 * alone: events wait in the outbox while the broker is away. Stopped with a last pass, then the
 * bus, before the host closes the pool.
 */
async function startEventRelay(hosted: HostedService, config: Readonly<WalletConfig>): Promise<{ stop: () => Promise<void> } | undefined> {
  if (config.AMQP_URL === undefined) {
    hosted.logger.warn('AMQP_URL is not set: the wallet’s events (disbursement reversals) wait in wallet.outbox until a wallet with AMQP_URL runs');
    return undefined;
  }
  let bus: Bus;
  try {
    // The ledger serves every money flow and must not wait for the broker: without one at start it
    // connects in the background, and the relay leaves the rows untouched until it does.
    bus = await connectBus({ url: config.AMQP_URL, hosts: config.AMQP_HOSTS, exchange: config.BUS_EXCHANGE, serviceName: 'wallet', logger: hosted.logger, registry: hosted.registry, startWithoutBroker: true });
  } catch (error) {
    await hosted.stop();
    throw error;
  }
  const relay = startServiceOutboxRelay({ context: hosted, bus, config });
  return {
    stop: async () => {
      await flushAndStopRelay(relay);
      await bus.close();
    },
  };
}
