import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { TargetPolicy } from '@pwa/contracts';
import type { RetryPolicy } from '../domain/retry-schedule';
import type { WebhookMetrics } from '../http/webhook-metrics';
import type { PartnerDirectory } from '../upstream/auth-directory-client';

export interface DeliverySettings {
  attemptTimeoutMs: number;
  retry: RetryPolicy;
  target: TargetPolicy;
  redeliverBatchMax: number;
}

export interface WebhooksDependencies {
  pool: Pool;
  logger: Logger;
  metrics: WebhookMetrics;
  /**
   * Open the sealed webhook secrets, tried in order: WEBHOOK_SECRET_SEALING_KEY, then, during a
   * rotation of that key, WEBHOOK_SECRET_SEALING_KEY_PREVIOUS. Held only in memory.
   */
  sealingKeys: readonly Buffer[];
  /** Auth's partner directory, read to rebuild the local copy of partners. */
  partnerDirectory: PartnerDirectory;
  settings: DeliverySettings;
  /** Asks the worker to look for due deliveries now rather than at its next poll. */
  wakeWorker: () => void;
}
