import { PkcError, echoInput } from '@pwa/errors';
import type { Collection } from '../domain/collection';
import { diagnoseRefusedAction, refusedStatusWording, type CollectionActor } from '../domain/collection-state-machine';
import { findRefusalFacts, markApproved, markCancelled, markDeclined, markExpired } from '../store/collection-store';
import type { CollectionsDependencies } from './dependencies';
import { endCollection } from './end-collections';
import { postApprovedCollection } from './post-collection';

/** Who acts: the user in the app (optionally naming their phone), or a partner (its own collections only). */
export type Actor = CollectionActor;

/**
 * The actions on a pending collection. Each is one conditional UPDATE naming the source state, the
 * window and the actor, so it is the single winner of any race with another action, the sweeper or
 * a replica; nothing is read before it. Only an UPDATE that changed nothing reads the row, once,
 * to say why (refuse).
 */

/**
 * The user approves: pending_approval → processing, then the wallet posting. The answer is the
 * collection after that attempt: completed, failed, or still processing when the wallet could not
 * be reached (the recovery worker finishes it).
 */
export async function approveCollection(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  const approved = await takeApproval(dependencies, referenceId, actor);
  if (!approved) return refuse(dependencies, referenceId, actor);
  return postApprovedCollection(dependencies, approved);
}

/**
 * pending_approval → processing: the approval's conditional UPDATE (for its actor; without one, the
 * sandbox's own test phones). The time from the request to it is observed.
 */
export async function takeApproval(dependencies: CollectionsDependencies, referenceId: string, actor?: Actor): Promise<Collection | undefined> {
  const approved = await markApproved(dependencies.pool, referenceId, dependencies.settings.recoveryDelayMs, actor);
  if (approved?.approvedAt) dependencies.metrics.collectionApproved((approved.approvedAt.getTime() - approved.createdAt.getTime()) / 1000);
  return approved;
}

/** The user declines: pending_approval → declined with collection.declined, in one transaction. */
export async function declineCollection(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  const declined = await endCollection(dependencies, (client) => markDeclined(client, referenceId, actor));
  return declined ?? refuse(dependencies, referenceId, actor);
}

/** The partner withdraws its pending request: pending_approval → cancelled with collection.cancelled, in one transaction. */
export async function cancelCollection(dependencies: CollectionsDependencies, referenceId: string, partnerId: string): Promise<Collection> {
  const cancelled = await endCollection(dependencies, (client) => markCancelled(client, referenceId, partnerId));
  return cancelled ?? refuse(dependencies, referenceId, { kind: 'partner', partnerId });
}

/** Sandbox only: the approval window passes at once (expired, collection.expired). */
export async function expireCollectionNow(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  const expired = await endCollection(dependencies, (client) => markExpired(client, referenceId, true, actor));
  return expired ?? refuse(dependencies, referenceId, actor);
}

/** Expires one pending collection past its window (with its event); undefined when another change won. */
export function expireOne(dependencies: CollectionsDependencies, referenceId: string): Promise<Collection | undefined> {
  return endCollection(dependencies, (client) => markExpired(client, referenceId, false));
}

/**
 * The conditional update changed nothing: one read (the row and the database's now()) and the
 * pure diagnosis say why. A pending collection past its window that the sweeper has not reached is
 * expired here and now (with its event), then answered 410.
 */
async function refuse(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<never> {
  const diagnosis = diagnoseRefusedAction(await findRefusalFacts(dependencies.pool, referenceId), actor);
  switch (diagnosis.code) {
    case 'PKC_6002':
      throw new PkcError('PKC_6002', `No collection request ${echoInput(referenceId)}`);
    case 'PKC_6005':
      throw new PkcError('PKC_6005');
    case 'PKC_6003':
      if (diagnosis.expireNow) await expireOne(dependencies, referenceId);
      throw new PkcError('PKC_6003');
    case 'PKC_6004':
      throw new PkcError('PKC_6004', `Collection ${echoInput(referenceId)} is already ${refusedStatusWording(diagnosis.status)}; it cannot be changed`);
  }
}
