import { breakerSettingsOf } from '@pwa/config';
import type { Logger } from '@pwa/logging';
import type { BackofficeConfig } from '../config';
import { createAuthAdminClient } from '../upstream/auth-admin-client';
import { createDashboardAdminClient } from '../upstream/dashboard-admin-client';
import { createQuotesAdminClient } from '../upstream/quotes-admin-client';
import { createWalletAdminClient } from '../upstream/wallet-admin-client';
import { createWebhooksAdminClient } from '../upstream/webhooks-admin-client';
import { actionExecutorsOf } from '../use-cases/action-executors';
import type { ExecutionPorts } from '../use-cases/execute-approved-request';
import type { PartnerReads, WalletReads } from '../use-cases/console-reads';
import type { TargetDirectory } from '../use-cases/four-eyes-requests';
import type { FirstAdminInvitationsPort, PartnerActionsPort, WebhookDeliveriesPort } from '../use-cases/partner-admin-actions';

/**
 * The owning services' admin routes the back-office executes approved changes through (one
 * executor per action), the owners' answers for the request-time check of a target (a partner, a
 * disbursement), and the owners' reads the console shows.
 */
export type AdminClients = ExecutionPorts & {
  targets: TargetDirectory;
  partners: PartnerReads;
  wallet: WalletReads;
  /** A person's partner changes without four eyes (onboarding, webhook URL), through auth. */
  partnerActions: PartnerActionsPort;
  /** The webhook delivery backlog and dead letters, and a redelivery, through the webhooks service. */
  webhooks: WebhookDeliveriesPort;
  /** A partner's first dashboard admin, through the dashboard's internal port; undefined when DASHBOARD_INTERNAL_URL is not set. */
  dashboard: FirstAdminInvitationsPort | undefined;
  shutdown(): void;
};

/** Made once at start from the configuration; shutdown() closes every client's breaker. */
export function createAdminClients(config: Readonly<BackofficeConfig>, logger: Logger): AdminClients {
  const breaker = breakerSettingsOf(config);
  const wallet = createWalletAdminClient({ baseUrl: config.WALLET_URL, timeoutMs: config.WALLET_TIMEOUT_MS, breaker }, logger);
  const auth = createAuthAdminClient({ baseUrl: config.AUTH_URL, timeoutMs: config.AUTH_TIMEOUT_MS, breaker }, logger);
  const quotes = createQuotesAdminClient({ baseUrl: config.QUOTES_URL, timeoutMs: config.QUOTES_TIMEOUT_MS, breaker }, logger);
  const webhooks = createWebhooksAdminClient({ baseUrl: config.WEBHOOKS_URL, timeoutMs: config.WEBHOOKS_TIMEOUT_MS, breaker }, logger);
  const dashboard = config.DASHBOARD_INTERNAL_URL === undefined ? undefined : createDashboardAdminClient({ baseUrl: config.DASHBOARD_INTERNAL_URL, timeoutMs: config.DASHBOARD_TIMEOUT_MS, breaker }, logger);
  return {
    executors: actionExecutorsOf({ wallet, auth, quotes }),
    targets: {
      partnerExists: (partnerId, requestId) => auth.partnerExists(partnerId, requestId),
      disbursementState: (referenceId, requestId) => wallet.disbursementState(referenceId, requestId),
    },
    partners: auth,
    wallet,
    partnerActions: auth,
    webhooks,
    dashboard,
    shutdown: () => {
      dashboard?.shutdown();
      wallet.shutdown();
      auth.shutdown();
      quotes.shutdown();
      webhooks.shutdown();
    },
  };
}
