import { enqueueEvent } from '@pwa/bus';
import { withTransaction } from '@pwa/db';
import { collectionEvent } from '../events/collection-events';
import { expireDueBatch } from '../store/collection-store';
import type { CollectionsDependencies } from '../use-cases/dependencies';

/**
 * One sweep: pending collections past their window become expired, with collection.expired in the
 * same transaction, one batch per transaction. SKIP LOCKED lets several replicas sweep at once
 * without waiting for each other or expiring a row twice; a row an approver holds is skipped and
 * left to the approver's own conditional update. At most `batchesMax` batches per sweep.
 */
export async function sweepExpiredCollections(dependencies: CollectionsDependencies, batchSize: number, batchesMax: number): Promise<number> {
  let expiredCount = 0;
  for (let batch = 0; batch < batchesMax; batch += 1) {
    const expired = await withTransaction(dependencies.pool, async (client) => {
      const rows = await expireDueBatch(client, batchSize);
      for (const collection of rows) await enqueueEvent(client, collectionEvent('collection.expired', collection));
      return rows;
    });
    expiredCount += expired.length;
    if (expired.length < batchSize) break;
  }
  if (expiredCount > 0) dependencies.logger.info({ expiredCount }, 'expired collections past their approval window');
  return expiredCount;
}
