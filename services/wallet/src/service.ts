import { hostService, type HostedService } from '@pwa/runtime';
import { postingFaultInjectionOf, type WalletConfig } from './config';
import { walletMigrationsDirectory, walletSchema } from './service-paths';
import { createLedgerMetrics, type LedgerMetrics } from './http/ledger-metrics';
import { mountPartnerRoutes } from './http/partner-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { checkLedger } from './use-cases/check-ledger';
import { startInvariantMonitor } from './workers/invariant-monitor';

export { walletSchema };

/**
 * Starts the wallet service: migrations of the wallet schema, the partner-facing reads, the
 * internal API, and the periodic ledger invariant check.
 */
export async function startWalletService(config: Readonly<WalletConfig>): Promise<HostedService> {
  const postingFaults = postingFaultInjectionOf(config);
  let metrics: LedgerMetrics | undefined;
  const hosted = await hostService({
    name: 'wallet',
    schema: walletSchema,
    migrationsDirectory: walletMigrationsDirectory,
    env: config,
    port: config.PORT,
    routes: (app, context) => {
      metrics = createLedgerMetrics(context.registry, context.pool);
      mountPartnerRoutes(app, context.pool);
      mountInternalRoutes(app, context.pool, { postingFaults, metrics });
    },
  });
  if (!metrics) throw new Error('wallet routes were not mounted');
  const ledgerMetrics = metrics;
  const monitor = startInvariantMonitor({
    check: () => checkLedger(hosted.pool),
    intervalMs: config.LEDGER_INVARIANT_CHECK_INTERVAL_MS,
    onChecked: (ok) => ledgerMetrics.invariantChecked(ok),
    logger: hosted.logger,
  });
  return {
    ...hosted,
    stop: async () => {
      await monitor.stop();
      await hosted.stop();
    },
  };
}
