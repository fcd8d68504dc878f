import { hostService, type HostedService } from '@pwa/runtime';
import { postingFaultInjectionOf, type WalletConfig } from './config';
import { walletMigrationsDirectory, walletSchema } from './service-paths';
import { mountPartnerRoutes } from './http/partner-routes';
import { mountInternalRoutes } from './http/internal-routes';

export { walletSchema };

/** Starts the wallet service: migrations of the wallet schema, the partner-facing reads and the internal API. */
export function startWalletService(config: Readonly<WalletConfig>): Promise<HostedService> {
  const postingFaults = postingFaultInjectionOf(config);
  return hostService({
    name: 'wallet',
    schema: walletSchema,
    migrationsDirectory: walletMigrationsDirectory,
    env: config,
    port: config.PORT,
    routes: (app, context) => {
      mountPartnerRoutes(app, context.pool);
      mountInternalRoutes(app, context.pool, { postingFaults });
    },
  });
}
