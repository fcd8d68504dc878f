import { withTransaction } from '@pwa/db';
import { startPeriodicTask } from '@pwa/runtime';
import { runWithLogContext, type Logger } from '@pwa/logging';
import { inSpan, runInTraceOrNewTrace } from '@pwa/telemetry';
import { attemptDelivery, finish, nextStateAfter, recoveredAttempt } from '../use-cases/attempt-delivery';
import type { WebhooksDependencies } from '../use-cases/dependencies';
import { claimDueDeliveries, lockExpiredLeases, type ClaimedDelivery } from '../store/delivery-store';

export interface WorkerSettings {
  pollIntervalMs: number;
  concurrencyMax: number;
  partnerConcurrencyMax: number;
  /** Attempt deadline plus a margin: a live worker always records its attempt before the lease ends. */
  leaseMs: number;
}

export interface DeliveryWorker {
  /** Looks for due deliveries now (after a new event or a redelivery request) instead of at the next poll. */
  wake(): void;
  /** Stops claiming and waits for the attempts in flight (each bounded by its deadline). */
  stop(): Promise<void>;
}

const expiredLeaseBatchSize = 50;

/**
 * Polls Postgres for due deliveries and runs their attempts, at most concurrencyMax at once in this
 * process and partnerConcurrencyMax per partner over every replica. A tick only claims and starts
 * attempts, it never waits for them, so one slow endpoint holds only its own slots.
 */
export function startDeliveryWorker(dependencies: WebhooksDependencies, settings: WorkerSettings, logger: Logger): DeliveryWorker {
  const inFlight = new Set<Promise<void>>();
  let stopped = false;

  const run = (claimed: ClaimedDelivery): void => {
    const attempt = attemptInTraceOfEvent(dependencies, claimed)
      .catch((error: unknown) => logger.error({ err: error, deliveryId: claimed.deliveryId }, 'webhook attempt could not be recorded; its lease will expire and it is recovered'))
      .finally(() => {
        inFlight.delete(attempt);
        // A slot is free: another due delivery may be waiting for it.
        task.wake();
      });
    inFlight.add(attempt);
  };

  const tick = async (): Promise<void> => {
    await recoverExpiredLeases(dependencies);
    const free = settings.concurrencyMax - inFlight.size;
    if (free <= 0 || stopped) return;
    const claimed = await claimDueDeliveries(dependencies.pool, { limit: free, partnerConcurrencyMax: settings.partnerConcurrencyMax, leaseMs: settings.leaseMs });
    for (const delivery of claimed) run(delivery);
  };

  // A wake during a tick runs one more tick right after it, so nothing that arrived meanwhile waits a poll.
  const task = startPeriodicTask({
    name: 'webhook-delivery',
    intervalMs: settings.pollIntervalMs,
    firstRunDelayMs: 0,
    run: tick,
    logger,
    failureLog: { level: 'warn', message: 'delivery worker tick failed; it runs again at the next poll' },
  });

  return {
    wake: () => task.wake(),
    stop: async () => {
      stopped = true;
      await task.stop();
      await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Runs the attempt in the trace and request of the event that caused the delivery, in a span of its
 * own; its outgoing POST (a client span of the HTTP instrumentation) is that span's child.
 */
function attemptInTraceOfEvent(dependencies: WebhooksDependencies, claimed: ClaimedDelivery): Promise<void> {
  const attributes = { 'webhook.event_type': claimed.eventType, 'webhook.attempt': claimed.attemptCount };
  return runInTraceOrNewTrace(claimed.traceparent ?? undefined, () =>
    runWithLogContext({ requestId: claimed.requestId ?? undefined }, () =>
      inSpan('webhook delivery attempt', 'internal', attributes, () => attemptDelivery(dependencies, claimed)),
    ),
  );
}

/**
 * A delivery whose lease expired was being sent by a worker that stopped (crash, kill). Its attempt
 * counts as failed with an unknown outcome and the delivery follows the retry schedule from now,
 * so a restart neither loses the delivery nor sends the next attempt early.
 */
async function recoverExpiredLeases(dependencies: WebhooksDependencies): Promise<void> {
  const recovered = await withTransaction(dependencies.pool, (client) => lockExpiredLeases(client, expiredLeaseBatchSize));
  for (const claimed of recovered) {
    const attempt = recoveredAttempt(claimed);
    await finish(dependencies, claimed, attempt, nextStateAfter(dependencies, claimed, attempt));
  }
}
