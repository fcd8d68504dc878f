import { PkcError, echoInput } from '@pwa/errors';
import type { Collection } from '../domain/collection';
import { diagnoseRefusedAction } from '../domain/collection-state-machine';
import { findByReferenceId, markApproved, markDeclined, markExpired } from '../store/collection-store';
import type { CollectionsDependencies } from './dependencies';
import { endCollection } from './end-collections';
import { postApprovedCollection } from './post-collection';

/** Who acts: the user in the app (optionally naming their phone), or a partner in the sandbox. */
export type Actor = { kind: 'user'; phone?: string } | { kind: 'partner'; partnerId: string };

/**
 * The user approves: pending_approval → processing by one conditional UPDATE (the single winner
 * of any race with a decline, the sweeper or another approve), then the wallet posting. The
 * answer is the collection after that attempt: completed, failed, or still processing when the
 * wallet could not be reached (the recovery worker finishes it).
 */
export async function approveCollection(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  await authorize(dependencies, referenceId, actor);
  const approved = await takeApproval(dependencies, referenceId);
  if (!approved) return refuse(dependencies, referenceId);
  return postApprovedCollection(dependencies, approved);
}

/**
 * pending_approval → processing: the user's approval, the one conditional UPDATE that wins any race
 * with a decline, the sweeper or another approve. The time from the request to it is observed.
 */
export async function takeApproval(dependencies: CollectionsDependencies, referenceId: string): Promise<Collection | undefined> {
  const approved = await markApproved(dependencies.pool, referenceId, dependencies.settings.recoveryDelayMs);
  if (approved?.approvedAt) dependencies.metrics.collectionApproved((approved.approvedAt.getTime() - approved.createdAt.getTime()) / 1000);
  return approved;
}

/** The user declines: pending_approval → declined with collection.declined, in one transaction. */
export async function declineCollection(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  await authorize(dependencies, referenceId, actor);
  const declined = await endCollection(dependencies, (client) => markDeclined(client, referenceId));
  return declined ?? refuse(dependencies, referenceId);
}

/** Sandbox only: the approval window passes at once (expired, collection.expired). */
export async function expireCollectionNow(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  await authorize(dependencies, referenceId, actor);
  const expired = await expireOne(dependencies, referenceId, true);
  return expired ?? refuse(dependencies, referenceId);
}

/** Expires one pending collection (with its event) when allowed; undefined when another change won. */
export function expireOne(dependencies: CollectionsDependencies, referenceId: string, evenWithinWindow: boolean): Promise<Collection | undefined> {
  return endCollection(dependencies, (client) => markExpired(client, referenceId, evenWithinWindow));
}

/** 404 PKC_6002 for an unknown collection; 403 PKC_6005 when the actor may not touch it. */
async function authorize(dependencies: CollectionsDependencies, referenceId: string, actor: Actor): Promise<Collection> {
  const collection = await findByReferenceId(dependencies.pool, referenceId);
  if (!collection) throw new PkcError('PKC_6002', `No collection request ${echoInput(referenceId)}`);
  const allowed = actor.kind === 'partner' ? collection.partnerId === actor.partnerId : actor.phone === undefined || actor.phone === collection.phone;
  if (!allowed) throw new PkcError('PKC_6005');
  return collection;
}

/**
 * The conditional update changed nothing: read the row again and say why. A pending collection
 * past its window that the sweeper has not reached is expired here and now (with its event).
 */
async function refuse(dependencies: CollectionsDependencies, referenceId: string): Promise<never> {
  const current = await findByReferenceId(dependencies.pool, referenceId);
  if (!current) throw new PkcError('PKC_6002', `No collection request ${echoInput(referenceId)}`);
  const now = await databaseNow(dependencies);
  const diagnosis = diagnoseRefusedAction(current.status, current.expiresAt, now);
  if (diagnosis.expireNow) await expireOne(dependencies, referenceId, false);
  throw new PkcError(diagnosis.code, diagnosis.code === 'PKC_6004' ? `Collection ${echoInput(referenceId)} is already ${current.status}; it cannot be changed` : undefined);
}

async function databaseNow(dependencies: CollectionsDependencies): Promise<Date> {
  const result = await dependencies.pool.query<{ now: Date }>('SELECT now() AS now');
  return result.rows[0]?.now ?? new Date();
}
