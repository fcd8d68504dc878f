import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Pool } from '@pwa/db';
import { isPkcError } from '@pwa/errors';
import { countPendingOverdue, countProcessingStale } from '../store/collection-store';
import type { CollectionMetrics } from '../use-cases/dependencies';
import { finalStatuses } from '../use-cases/end-collections';

/** How far past its window a pending collection must be before it counts as overdue (a stalled sweeper). */
const overdueGraceSeconds = 60;
/** How long after its approval a collection may stay processing before it counts as stale (the wallet not answering). */
const processingStaleSeconds = 60;

export interface CollectionServiceMetrics extends CollectionMetrics {
  confirmAccepted(): void;
  /** A refused confirm call, counted with the code the error handler answers for the error. */
  confirmRejected(error: unknown): void;
}

/**
 * The collections catalogue metrics (docs/metrics.md) on the service's registry: confirm calls,
 * final states, approval latency, the overdue pending and stale processing counts (sampled at
 * scrape), the last expiry sweep and the last posting recovery pass.
 */
export function createCollectionMetrics(registry: Registry, pool: Pool): CollectionServiceMetrics {
  const confirms = new Counter({
    name: 'confirm_requests_total',
    help: 'Confirm calls by type and outcome: accepted (code none) or rejected with its PKC code',
    labelNames: ['type', 'outcome', 'code'] as const,
    registers: [registry],
  });
  const ended = new Counter({
    name: 'collections_terminal_total',
    help: 'Collections that reached a final state: completed, declined, expired, failed, cancelled',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const approvalLatency = new Histogram({
    name: 'collection_approval_latency_seconds',
    help: "Time from the collection request to the user's approval",
    buckets: [1, 2.5, 5, 10, 20, 30, 60, 120, 180, 300, 450, 600, 900],
    registers: [registry],
  });
  new Gauge({
    name: 'collections_pending_overdue',
    help: `Collections still pending_approval more than ${overdueGraceSeconds} s past their expiresAt (a stalled expiry sweeper)`,
    registers: [registry],
    async collect() {
      this.set(await countPendingOverdue(pool, overdueGraceSeconds).catch(() => Number.NaN));
    },
  });
  const lastSweep = new Gauge({
    name: 'collection_expiry_sweep_last_success_timestamp_seconds',
    help: 'Unix time of the last expiry sweep that finished (0 before the first)',
    registers: [registry],
  });
  new Gauge({
    name: 'collections_processing_stale',
    help: `Collections still processing (approved, posting in progress) more than ${processingStaleSeconds} s after their approval`,
    registers: [registry],
    async collect() {
      this.set(await countProcessingStale(pool, processingStaleSeconds).catch(() => Number.NaN));
    },
  });
  const lastRecovery = new Gauge({
    name: 'collection_posting_recovery_last_success_timestamp_seconds',
    help: 'Unix time of the last posting recovery pass that finished (0 before the first)',
    registers: [registry],
  });
  confirms.inc({ type: 'collection', outcome: 'accepted', code: 'none' }, 0);
  for (const state of finalStatuses) ended.inc({ state }, 0);
  return {
    confirmAccepted: () => confirms.inc({ type: 'collection', outcome: 'accepted', code: 'none' }),
    confirmRejected: (error) => confirms.inc({ type: 'collection', outcome: 'rejected', code: isPkcError(error) ? error.code : 'PKC_7002' }),
    collectionEnded: (state) => ended.inc({ state }),
    collectionApproved: (latencySeconds) => approvalLatency.observe(Math.max(0, latencySeconds)),
    expirySweepFinished: () => lastSweep.set(Date.now() / 1000),
    postingRecoveryFinished: () => lastRecovery.set(Date.now() / 1000),
  };
}
