import { expireDueBatch } from '../store/collection-store';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { endCollections } from '../use-cases/end-collections';

/**
 * One sweep: pending collections past their window become expired, with collection.expired in the
 * same transaction, one batch per transaction. SKIP LOCKED lets several replicas sweep at once
 * without waiting for each other or expiring a row twice; a row an approver holds is skipped and
 * left to the approver's own conditional update. At most `batchesMax` batches per sweep. A sweep
 * that finishes sets collection_expiry_sweep_last_success_timestamp_seconds.
 */
export async function sweepExpiredCollections(dependencies: CollectionsDependencies, batchSize: number, batchesMax: number): Promise<number> {
  let expiredCount = 0;
  for (let batch = 0; batch < batchesMax; batch += 1) {
    const expired = await endCollections(dependencies, (client) => expireDueBatch(client, batchSize));
    expiredCount += expired.length;
    if (expired.length < batchSize) break;
  }
  if (expiredCount > 0) dependencies.logger.info({ expiredCount }, 'expired collections past their approval window');
  dependencies.metrics.expirySweepFinished();
  return expiredCount;
}
