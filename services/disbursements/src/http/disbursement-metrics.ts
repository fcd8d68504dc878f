import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Pool } from '@pwa/db';
import { isPkcError } from '@pwa/errors';
import { countProcessingStale } from '../store/disbursement-store';
import { readBulkBacklog } from '../store/bulk-store';

/**
 * How a transfer call ended for the partner: completed (200), timed_out (504 PKC_7004: the budget ran
 * out and the transfer id was cancelled), unknown (500 PKC_7002: the answer cannot say whether money
 * moved, typically a cancellation that got no answer, settled later by the sweep), or rejected.
 */
export const transferOutcomes = ['completed', 'rejected', 'timed_out', 'unknown'] as const;
export type TransferOutcome = (typeof transferOutcomes)[number];

/** How long after its creation a disbursement may stay processing before it counts as stale (the sweep settles it after ~34 s). */
const processingStaleSeconds = 60;

export interface DisbursementMetrics {
  transferCompleted(durationSeconds: number): void;
  /** A transfer answered with an error; counted with the code the error handler answers for it. */
  transferRefused(error: unknown, durationSeconds: number): void;
}

export interface DisbursementServiceMetrics extends DisbursementMetrics {
  /** The settlement sweep finished a pass. */
  settlementSweepFinished(): void;
  /** The bulk processor finished a pass that settled this many items (decision 0055). */
  bulkPassFinished(settledItems: number): void;
}

/**
 * The disbursements catalogue metrics (docs/metrics.md) on the service's registry:
 * `confirm_requests_total{type="disbursement"}`, `disbursement_duration_seconds{outcome}`, the stale
 * processing count (sampled at scrape) and the last settlement sweep.
 */
export function createDisbursementMetrics(registry: Registry, pool: Pool): DisbursementServiceMetrics {
  const confirms = new Counter({
    name: 'confirm_requests_total',
    help: 'Confirm calls by type and outcome: completed (code none) or rejected with its PKC code',
    labelNames: ['type', 'outcome', 'code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'disbursement_duration_seconds',
    help: 'Transfer calls from arrival to the answer, by outcome: completed, rejected, timed_out, unknown',
    labelNames: ['outcome'] as const,
    // The budget is 25 s; a cancellation after it adds a few seconds.
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 20, 25, 30, 40],
    registers: [registry],
  });
  new Gauge({
    name: 'disbursements_processing_stale',
    help: `Disbursements still processing more than ${processingStaleSeconds} s after their creation (the settlement sweep cannot settle them)`,
    registers: [registry],
    async collect() {
      this.set(await countProcessingStale(pool, processingStaleSeconds).catch(() => Number.NaN));
    },
  });
  const lastSweep = new Gauge({
    name: 'disbursement_settlement_sweep_last_success_timestamp_seconds',
    help: 'Unix time of the last settlement sweep that finished (0 before the first)',
    registers: [registry],
  });
  // Both bulk gauges come from one query: a scrape collects them at once and they share its read.
  const bulkBacklog = sharedWhileInFlight(() => readBulkBacklog(pool));
  new Gauge({
    name: 'disbursement_bulk_items_pending',
    help: 'Items of bulk payouts accepted and not yet final (sampled at scrape)',
    registers: [registry],
    async collect() {
      this.set(await bulkBacklog().then((backlog) => backlog.pendingItems, () => Number.NaN));
    },
  });
  new Gauge({
    name: 'disbursement_bulk_oldest_processing_seconds',
    help: 'Age of the oldest bulk payout still processing, 0 when none (sampled at scrape)',
    registers: [registry],
    async collect() {
      this.set(await bulkBacklog().then((backlog) => backlog.oldestProcessingSeconds, () => Number.NaN));
    },
  });
  const bulkItemsSettled = new Counter({
    name: 'disbursement_bulk_items_settled_total',
    help: 'Bulk payout items this process moved to a final state (completed or failed)',
    registers: [registry],
  });
  const lastBulkPass = new Gauge({
    name: 'disbursement_bulk_processor_last_pass_timestamp_seconds',
    help: 'Unix time of the last bulk processor pass that finished (0 before the first)',
    registers: [registry],
  });
  confirms.inc({ type: 'disbursement', outcome: 'completed', code: 'none' }, 0);
  for (const outcome of transferOutcomes) duration.zero({ outcome });
  return {
    transferCompleted: (durationSeconds) => {
      confirms.inc({ type: 'disbursement', outcome: 'completed', code: 'none' });
      duration.observe({ outcome: 'completed' }, durationSeconds);
    },
    transferRefused: (error, durationSeconds) => {
      const code = isPkcError(error) ? error.code : 'PKC_7002';
      confirms.inc({ type: 'disbursement', outcome: 'rejected', code });
      duration.observe({ outcome: outcomeOfRefusal(code) }, durationSeconds);
    },
    settlementSweepFinished: () => lastSweep.set(Date.now() / 1000),
    bulkPassFinished: (settledItems) => {
      bulkItemsSettled.inc(settledItems);
      lastBulkPass.set(Date.now() / 1000);
    },
  };
}

/** A read that callers arriving while it runs share, instead of each starting their own. */
function sharedWhileInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}

export function outcomeOfRefusal(code: string): Exclude<TransferOutcome, 'completed'> {
  if (code === 'PKC_7004') return 'timed_out';
  if (code === 'PKC_7002') return 'unknown';
  return 'rejected';
}
