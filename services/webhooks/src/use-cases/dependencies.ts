import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { TargetPolicy } from '../domain/address-policy';
import type { RetryPolicy } from '../domain/retry-schedule';
import type { WebhookMetrics } from '../delivery/webhook-metrics';

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
  /** Opens the sealed webhook secrets; held only in memory. */
  sealingKey: Buffer;
  settings: DeliverySettings;
  /** Asks the worker to look for due deliveries now rather than at its next poll. */
  wakeWorker: () => void;
}
