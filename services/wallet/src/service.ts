import path from 'node:path';
import { hostService, type HostedService } from '@pwa/runtime';
import type { WalletConfig } from './config';

export const walletSchema = 'wallet';

/** Starts the wallet service. Its business endpoints arrive with their own issue; for now it answers health, readiness and metrics. */
export function startWalletService(config: Readonly<WalletConfig>): Promise<HostedService> {
  return hostService({
    name: 'wallet',
    schema: walletSchema,
    migrationsDirectory: path.join(__dirname, '..', 'migrations'),
    env: config,
    port: config.PORT,
  });
}
