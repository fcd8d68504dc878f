import { breakerSettingsOf } from '@pwa/config';
import { quotesPaths } from '@pwa/contracts';
import { prepareService, type HostedService, type PreparedService } from '@pwa/runtime';
import { createCircuitBreakerStates } from '@pwa/http';
import { createLogger } from '@pwa/logging';
import type { QuotesConfig } from './config';
import { mountAdminRoutes } from './http/admin-routes';
import { mountInternalRoutes } from './http/internal-routes';
import { createQuoteMetrics } from './http/quote-metrics';
import { mountQuoteRoutes } from './http/quote-routes';
import { quotesMigrationDirectories, quotesSchema } from './service-paths';
import { createWalletClient } from './upstream/wallet-client';
import { createFeeScheduleCache } from './store/fee-schedule-cache';

export { quotesSchema };

/**
 * Starts quotes: migrations (fee schedule defaults included), the partner quote endpoints, the
 * internal consume and bulk quote endpoints, and the wallet client with its deadline and circuit breaker.
 */
export async function startQuotesService(config: Readonly<QuotesConfig>): Promise<HostedService> {
  const logger = createLogger({ service: 'quotes', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
  const breakerStates = createCircuitBreakerStates();
  const wallet = createWalletClient(
    {
      baseUrl: config.WALLET_URL,
      timeoutMs: config.WALLET_TIMEOUT_MS,
      breaker: breakerSettingsOf(config),
      watchBreaker: breakerStates.watch,
    },
    logger,
  );
  let prepared: PreparedService | undefined;
  let hosted: HostedService;
  try {
    prepared = await prepareService({ name: 'quotes', schema: quotesSchema, migrationDirectories: quotesMigrationDirectories, env: config, port: config.PORT, logger });
    const { pool, registry } = prepared;
    breakerStates.register(registry);
    const metrics = createQuoteMetrics(registry);
    const quoteDependencies = {
      pool,
      wallet,
      feeSchedules: createFeeScheduleCache(pool),
      settings: {
        lifetimeSeconds: config.QUOTE_LIFETIME_SECONDS,
        enabledCurrencies: {
          collection: config.QUOTES_COLLECTION_CURRENCIES,
          disbursement: config.QUOTES_DISBURSEMENT_CURRENCIES,
        },
      },
    };
    hosted = await prepared.listen({
      // A bulk quote carries up to 1,000 items with their texts (issue 20): its route alone reads
      // bodies up to 2 MB, as the gateway's bulk quote route does; every other body stays at 16 kB.
      largeJsonBody: { limit: '2mb', appliesTo: (req) => req.method === 'POST' && req.path === quotesPaths.bulkQuotes },
      routes: (app) => {
        mountQuoteRoutes(app, quoteDependencies, metrics);
        mountInternalRoutes(app, quoteDependencies, metrics);
        mountAdminRoutes(app, pool);
      },
    });
  } catch (error) {
    await prepared?.closePool();
    wallet.shutdown();
    throw error;
  }
  return {
    ...hosted,
    stop: async () => {
      await hosted.stop();
      wallet.shutdown();
    },
  };
}
