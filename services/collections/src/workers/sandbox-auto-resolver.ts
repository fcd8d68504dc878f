import { isPkcError } from '@pwa/errors';
import { autoResolutionOf, sandboxAutoResolvingPhones } from '../domain/sandbox-test-phones';
import { findPendingOfPhonesOlderThan } from '../store/collection-store';
import { approveCollection, declineCollection, expireCollectionNow, takeApproval } from '../use-cases/act-on-collection';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { fail } from '../use-cases/post-collection';

const batchSize = 50;
/** The failure code a "fail" test phone's collection ends with: a processing error after approval. */
export const simulatedFailureCode = 'PKC_7002';
/** Its partner message: the sandbox says plainly that the failure was simulated. */
export const simulatedFailureMessage = 'The payment could not be processed (a simulated processing error of the sandbox test phone); nothing was posted';

/**
 * Sandbox only: resolves the pending collections of the documented test phones once they are
 * `delayMs` old, through the same use cases a user's action takes (so races with the partner's own
 * sandbox calls or the sweeper have one winner, and the loser is ignored here). "fail" approves and
 * then fails the collection without posting, as a processing error would.
 */
export async function resolveTestPhoneCollections(dependencies: CollectionsDependencies, delayMs: number): Promise<void> {
  const due = await findPendingOfPhonesOlderThan(dependencies.pool, Object.keys(sandboxAutoResolvingPhones), delayMs, batchSize);
  for (const collection of due) {
    const actor = { kind: 'user' as const, phone: collection.phone };
    try {
      switch (autoResolutionOf(collection.phone)) {
        case 'approve':
          await approveCollection(dependencies, collection.referenceId, actor);
          break;
        case 'decline':
          await declineCollection(dependencies, collection.referenceId, actor);
          break;
        case 'expire':
          await expireCollectionNow(dependencies, collection.referenceId, actor);
          break;
        case 'fail': {
          const approved = await takeApproval(dependencies, collection.referenceId);
          if (approved) await fail(dependencies, approved, simulatedFailureCode, simulatedFailureMessage);
          break;
        }
        case undefined:
          break;
      }
    } catch (error) {
      if (!isPkcError(error)) throw error;
      // Someone else acted first (the partner's sandbox call, the sweeper): their outcome stands.
    }
  }
}
