import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Pool } from '@pwa/db';
import { oldestDueAgeSeconds } from '../store/delivery-store';

export type FinalOutcome = 'delivered' | 'failed' | 'skipped';

export interface WebhookMetrics {
  deliveryFinished(outcome: FinalOutcome): void;
  attemptFinished(result: 'success' | 'failure', latencyMs: number | null): void;
  retryScheduled(): void;
}

/** Delivery metrics on the service's registry (served on /metrics with the HTTP ones). */
export function createWebhookMetrics(registry: Registry, pool: Pool): WebhookMetrics {
  const deliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Deliveries that reached a final state in this process, by outcome (delivered, failed after the last retry, skipped: no webhook URL)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const attempts = new Histogram({
    name: 'webhook_attempt_duration_seconds',
    help: 'Latency of webhook attempts until the response status line (or the failure), by result',
    labelNames: ['result'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 7.5, 10, 15],
    registers: [registry],
  });
  const retries = new Counter({
    name: 'webhook_retries_total',
    help: 'Retries scheduled after a failed attempt',
    registers: [registry],
  });
  new Gauge({
    name: 'webhook_queue_lag_seconds',
    help: 'Age of the oldest delivery that is due and not yet claimed (0 when none waits)',
    registers: [registry],
    async collect() {
      this.set(await oldestDueAgeSeconds(pool).catch(() => Number.NaN));
    },
  });
  for (const outcome of ['delivered', 'failed', 'skipped'] as const) deliveries.inc({ outcome }, 0);
  return {
    deliveryFinished: (outcome) => deliveries.inc({ outcome }),
    attemptFinished: (result, latencyMs) => {
      if (latencyMs !== null) attempts.observe({ result }, latencyMs / 1000);
    },
    retryScheduled: () => retries.inc(),
  };
}
