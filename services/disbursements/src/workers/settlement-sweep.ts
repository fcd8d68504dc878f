import { startPeriodicTask } from '@pwa/runtime';
import { timedOutSettlement } from '../domain/disbursement';
import { listStaleProcessing } from '../store/disbursement-store';
import { settleByCancelling, type SettleDependencies } from '../use-cases/record-settlement';

export interface SettlementSweep {
  /** Runs one sweep now (after the one in flight); resolves with how many disbursements it settled (0 once stopped). */
  sweepNow(): Promise<number>;
  stop(): Promise<void>;
}

const batchSizeMax = 50;

/**
 * Settles disbursements left processing after their request is long over (the process died between
 * posting and recording it, or the cancellation itself got no answer): cancelling the transfer id
 * tells whether it posted (completed) or now never will (timed_out, PKC_7004, externalId free).
 * `staleAfterMs` must exceed the budget plus the cancellation deadline so no live request is raced.
 * `onSweepFinished` runs after each pass that finishes (disbursement_settlement_sweep_last_success_timestamp_seconds).
 */
export function startSettlementSweep(
  dependencies: SettleDependencies,
  options: { intervalMs: number; staleAfterMs: number; onSweepFinished?: () => void },
): SettlementSweep {
  const sweepOnce = async (): Promise<number> => {
    const stale = await listStaleProcessing(dependencies.pool, options.staleAfterMs, batchSizeMax);
    let settled = 0;
    for (const disbursement of stale) {
      const result = await settleByCancelling(dependencies, disbursement, timedOutSettlement());
      if (result.status !== 'processing') settled += 1;
    }
    if (settled > 0) dependencies.logger.info({ settled }, 'settled stale disbursements');
    options.onSweepFinished?.();
    return settled;
  };

  const task = startPeriodicTask({
    name: 'settlement-sweep',
    intervalMs: options.intervalMs,
    run: sweepOnce,
    logger: dependencies.logger,
    failureLog: { level: 'error', message: 'settlement sweep failed' },
  });

  return {
    sweepNow: async () => (await task.runNow()) ?? 0,
    stop: () => task.stop(),
  };
}
