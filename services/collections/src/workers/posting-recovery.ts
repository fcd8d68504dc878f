import { claimDuePostings } from '../store/collection-store';
import { complete, fail, postApprovedCollection } from '../use-cases/post-collection';
import type { CollectionsDependencies } from '../use-cases/dependencies';

export interface RecoverySettings {
  batchSize: number;
  delayMs: number;
  delayMsMax: number;
  /** Posting attempts before the worker cancels the transfer id instead (then: failed, or completed if it had posted). */
  postingAttemptsMax: number;
}

/** The wallet's refusal code recorded on a collection whose posting was abandoned after the retries. */
export const abandonedPostingCode = 'PKC_7003';

/**
 * Re-drives approved collections the wallet did not answer for. Each claimed row carries a lease
 * (next_posting_at moved ahead with exponential backoff), so replicas never work on the same row at
 * once; postings are idempotent by transferId (the collection's id), so a repeat never moves money
 * twice. After `postingAttemptsMax` attempts the worker stops posting and cancels the transfer id
 * instead: the wallet then either confirms that nothing will ever post (→ failed) or reports the
 * posting it already made (→ completed). Until the wallet answers, the row stays processing and
 * the cancellation is retried at the longest delay; the log says so on each attempt. A pass that
 * finishes sets collection_posting_recovery_last_success_timestamp_seconds.
 */
export async function recoverPendingPostings(dependencies: CollectionsDependencies, settings: RecoverySettings): Promise<void> {
  const claimed = await claimDuePostings(dependencies.pool, settings.batchSize, settings.delayMs, settings.delayMsMax);
  for (const collection of claimed) {
    if (collection.postingAttempts <= settings.postingAttemptsMax) {
      await postApprovedCollection(dependencies, collection);
      continue;
    }
    const cancellation = await dependencies.wallet.cancel(collection.id);
    if (cancellation.kind === 'cancelled') await fail(dependencies, collection, abandonedPostingCode);
    else if (cancellation.kind === 'posted') await complete(dependencies, collection, cancellation.transactionId, cancellation.postedAt);
    else dependencies.logger.error({ referenceId: collection.referenceId, attempts: collection.postingAttempts }, 'posting abandoned but the wallet cannot confirm the cancellation; still processing');
  }
  dependencies.metrics.postingRecoveryFinished();
}
