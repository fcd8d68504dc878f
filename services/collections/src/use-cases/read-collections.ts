import { PkcError, echoInput } from '@pwa/errors';
import { normaliseLiberianPhone } from '@pwa/phone';
import type { Collection } from '../domain/collection';
import { findByReferenceId, listPendingForPhone } from '../store/collection-store';
import type { CollectionsDependencies } from './dependencies';

const pendingListMax = 50;

/** The partner's status read: 404 PKC_6002 when unknown, 403 PKC_6005 when another partner's. */
export async function collectionForPartner(dependencies: CollectionsDependencies, partnerId: string, referenceId: string): Promise<Collection> {
  const collection = await findByReferenceId(dependencies.pool, referenceId);
  if (!collection) throw new PkcError('PKC_6002', `No collection request ${echoInput(referenceId)}`);
  if (collection.partnerId !== partnerId) throw new PkcError('PKC_6005');
  return collection;
}

/** What the user's app lists: their pending requests still within the window, oldest first. */
export async function pendingCollectionsOfUser(dependencies: CollectionsDependencies, phoneText: string): Promise<Collection[]> {
  const phone = normaliseLiberianPhone(phoneText);
  if (phone === undefined) throw new PkcError('PKC_2001');
  return listPendingForPhone(dependencies.pool, phone, pendingListMax);
}
