import { Counter, Histogram, type Registry } from 'prom-client';
import { isPkcError } from '@pwa/errors';

/**
 * How a transfer call ended for the partner: completed (200), timed_out (504 PKC_7004: the budget ran
 * out and the transfer id was cancelled), unknown (500 PKC_7002: the answer cannot say whether money
 * moved, typically a cancellation that got no answer, settled later by the sweep), or rejected.
 */
export const transferOutcomes = ['completed', 'rejected', 'timed_out', 'unknown'] as const;
export type TransferOutcome = (typeof transferOutcomes)[number];

export interface DisbursementMetrics {
  transferCompleted(durationSeconds: number): void;
  /** A transfer answered with an error; counted with the code the error handler answers for it. */
  transferRefused(error: unknown, durationSeconds: number): void;
}

/** `confirm_requests_total{type="disbursement"}` and `disbursement_duration_seconds{outcome}` on the service's registry. */
export function createDisbursementMetrics(registry: Registry): DisbursementMetrics {
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
  };
}

export function outcomeOfRefusal(code: string): Exclude<TransferOutcome, 'completed'> {
  if (code === 'PKC_7004') return 'timed_out';
  if (code === 'PKC_7002') return 'unknown';
  return 'rejected';
}
