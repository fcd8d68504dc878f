import type { Collection } from '../domain/collection';
import { failureCodeOf, failureMessageFor } from '../domain/failure-reason';
import { findById, markCompleted, markFailed } from '../store/collection-store';
import type { CollectionsDependencies } from './dependencies';
import { endCollection } from './end-collections';

/**
 * Posts an approved (processing) collection through the wallet with the collection's id as the
 * transferId, so a repeated attempt (the recovery worker, another replica) can never post twice.
 * Posted → completed with collection.completed; refused by the wallet's re-check → failed with
 * collection.failed (nothing moved); no answer → stays processing for the recovery worker.
 */
export async function postApprovedCollection(dependencies: CollectionsDependencies, collection: Collection): Promise<Collection> {
  const result = await dependencies.wallet.post(collection.id, {
    partnerId: collection.partnerId,
    phone: collection.phone,
    currency: collection.currency,
    amountMinor: collection.amountMinor,
    feeMinor: collection.feeMinor,
    reference: collection.referenceId, referenceId: collection.referenceId, externalId: collection.externalId,
  });
  switch (result.kind) {
    case 'posted':
      return complete(dependencies, collection, result.transactionId, result.postedAt);
    case 'refused':
      dependencies.logger.info({ referenceId: collection.referenceId, code: result.code }, 'collection posting refused; the collection failed');
      return fail(dependencies, collection, result.code);
    case 'unavailable':
      dependencies.logger.warn({ referenceId: collection.referenceId, reason: result.reason }, 'wallet unavailable; the recovery worker will re-drive the posting');
      return collection;
  }
}

export async function complete(dependencies: CollectionsDependencies, collection: Collection, transactionId: string, postedAt: Date): Promise<Collection> {
  const completed = await endCollection(dependencies, (client) => markCompleted(client, collection.id, transactionId, postedAt));
  return completed ?? (await current(dependencies, collection));
}

/**
 * processing → failed with collection.failed. The reason is the code (a refusal code outside the
 * catalogue becomes PKC_7002) and a partner message: the given one, or the code's own.
 */
export async function fail(dependencies: CollectionsDependencies, collection: Collection, failureCode: string, failureMessage?: string): Promise<Collection> {
  const code = failureCodeOf(failureCode);
  const reason = { code, message: failureMessage ?? failureMessageFor(code) };
  const failed = await endCollection(dependencies, (client) => markFailed(client, collection.id, reason));
  return failed ?? (await current(dependencies, collection));
}

/** Another actor settled it first (a replica's recovery attempt): its outcome is the outcome. */
async function current(dependencies: CollectionsDependencies, collection: Collection): Promise<Collection> {
  return (await findById(dependencies.pool, collection.id)) ?? collection;
}
