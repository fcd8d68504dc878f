import { startPeriodicTask } from '@pwa/runtime';
import { listBulksAwaitingCompletion } from '../store/bulk-store';
import { completeBulkIfFinished, postNextBulkBatch, type BulkBatchDependencies } from '../use-cases/post-bulk-batch';

export interface BulkProcessor {
  /** Runs a pass now (after the one in flight); resolves with how many items it settled (0 once stopped). */
  runNow(): Promise<number>;
  /** Asks for a pass soon without waiting for it (the transfer call, after accepting a bulk). */
  wake(): void;
  stop(): Promise<void>;
}

/** Bulks whose completion a pass records at most (those a crash left between their last item and bulk.completed). */
const completionsPerPassMax = 20;

/**
 * Posts accepted bulk items in batches (decision 0055). Each pass posts batch after batch until
 * nothing is left to claim or `passBudgetMs` is spent (then the next tick goes on), and records the
 * completion of bulks a crash left finished but still processing. Several replicas may run it:
 * claims are leased and skip locked rows.
 */
export function startBulkProcessor(dependencies: BulkBatchDependencies, options: { intervalMs: number; passBudgetMs: number; onPassFinished?: (settled: number) => void }): BulkProcessor {
  const passOnce = async (): Promise<number> => {
    const startedAt = Date.now();
    let settled = 0;
    for (;;) {
      const outcome = await postNextBulkBatch(dependencies);
      settled += outcome.settled;
      if (outcome.claimed === 0 || outcome.settled === 0 || Date.now() - startedAt >= options.passBudgetMs) break;
    }
    for (const bulkId of await listBulksAwaitingCompletion(dependencies.pool, completionsPerPassMax)) await completeBulkIfFinished(dependencies.pool, bulkId);
    options.onPassFinished?.(settled);
    return settled;
  };

  const task = startPeriodicTask({
    name: 'bulk-processor',
    intervalMs: options.intervalMs,
    run: passOnce,
    logger: dependencies.logger,
    failureLog: { level: 'error', message: 'bulk processor pass failed; it runs again at the next tick' },
  });

  return {
    runNow: async () => (await task.runNow()) ?? 0,
    wake: () => {
      task.runNow().catch(() => undefined);
    },
    stop: () => task.stop(),
  };
}
