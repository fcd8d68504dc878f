import type { Logger } from '@pwa/logging';
import { startPeriodicTask, type PeriodicTask } from '@pwa/runtime';
import { pruneExpiredEvents } from '../use-cases/partner-events';
import type { WebhooksDependencies } from '../use-cases/dependencies';

/**
 * Deletes the deliveries (the event log) older than the 30-day retention every intervalMs, on
 * every replica: the batches lock with SKIP LOCKED, so replicas share the work instead of
 * colliding. The first run comes one interval after start, never in the way of readiness.
 */
export function startEventRetention(dependencies: WebhooksDependencies, intervalMs: number, logger: Logger): PeriodicTask<number> {
  return startPeriodicTask({ name: 'event retention', intervalMs, run: () => pruneExpiredEvents(dependencies), logger });
}
