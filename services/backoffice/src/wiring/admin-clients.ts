import { breakerSettingsOf } from '@pwa/config';
import type { Logger } from '@pwa/logging';
import type { BackofficeConfig } from '../config';
import { createWalletAdminClient } from '../upstream/wallet-admin-client';
import type { WalletAdmin } from '../use-cases/execute-approved-request';

/** The owning services' admin routes the back-office executes approved changes through. */
export type AdminClients = WalletAdmin & { shutdown(): void };

/** Made once at start from the configuration; shutdown() closes every client's breaker. */
export function createAdminClients(config: Readonly<BackofficeConfig>, logger: Logger): AdminClients {
  return createWalletAdminClient({ baseUrl: config.WALLET_URL, timeoutMs: config.WALLET_TIMEOUT_MS, breaker: breakerSettingsOf(config) }, logger);
}
