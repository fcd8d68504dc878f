import { enqueueEvent } from '@pwa/bus';
import type { CollectionEventType } from '@pwa/contracts';
import { withTransaction, type PoolClient } from '@pwa/db';
import type { Collection } from '../domain/collection';
import type { CollectionStatus } from '../domain/collection-state-machine';
import { collectionEvent } from '../events/collection-events';
import type { CollectionsDependencies } from './dependencies';

/** The final states; each has its event. */
export type FinalStatus = Extract<CollectionStatus, 'completed' | 'declined' | 'expired' | 'failed' | 'cancelled'>;
export const finalStatuses: readonly FinalStatus[] = ['completed', 'declined', 'expired', 'failed', 'cancelled'];

const eventOfFinalStatus: Record<FinalStatus, CollectionEventType> = {
  completed: 'collection.completed',
  declined: 'collection.declined',
  expired: 'collection.expired',
  failed: 'collection.failed',
  cancelled: 'collection.cancelled',
};

function isFinalStatus(status: CollectionStatus): status is FinalStatus {
  return (finalStatuses as readonly CollectionStatus[]).includes(status);
}

/**
 * The one way collections end: `end` runs the conditional UPDATE(s) to a final state, and each
 * collection it changed gets its event in the same transaction. Once that has committed, the
 * endings are counted (collections_terminal_total); a change another actor won is not counted here.
 */
export async function endCollections(dependencies: CollectionsDependencies, end: (client: PoolClient) => Promise<Collection[]>): Promise<Collection[]> {
  const ended = await withTransaction(dependencies.pool, async (client) => {
    const changed = await end(client);
    for (const collection of changed) {
      if (!isFinalStatus(collection.status)) throw new Error(`collection ${collection.referenceId} is ${collection.status}, not a final state`);
      await enqueueEvent(client, collectionEvent(eventOfFinalStatus[collection.status], collection));
    }
    return changed;
  });
  for (const collection of ended) if (isFinalStatus(collection.status)) dependencies.metrics.collectionEnded(collection.status);
  return ended;
}

/** endCollections for one collection; undefined when the conditional update changed nothing. */
export async function endCollection(dependencies: CollectionsDependencies, end: (client: PoolClient) => Promise<Collection | undefined>): Promise<Collection | undefined> {
  const [ended] = await endCollections(dependencies, async (client) => {
    const changed = await end(client);
    return changed ? [changed] : [];
  });
  return ended;
}
