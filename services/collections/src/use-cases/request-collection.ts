import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@pwa/bus';
import { withTransaction } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Collection } from '../domain/collection';
import { partnerVisibleStatus } from '../domain/collection-state-machine';
import { parseConfirmRequestBody as parseCollectionRequestBody } from '@pwa/contracts';
import { newReferenceId } from '../domain/reference-id';
import { collectionEvent } from '../events/collection-events';
import { findHolderOfExternalId, insertCollection, isExternalIdConflict } from '../store/collection-store';
import type { CollectionsDependencies } from './dependencies';

/**
 * The partner's confirm call. The story: validate the body; consume the quote (it stays used
 * whatever happens next); refuse an externalId already in use; re-check limits and balance with
 * the wallet; then create the collection in pending_approval and its collection.requested event
 * (which notifies the user) in one transaction. The partial unique index decides externalId
 * races; the read before the wallet call only answers the common case early.
 */
export async function requestCollection(dependencies: CollectionsDependencies, partnerId: string, body: unknown, requestId?: string): Promise<Collection> {
  const request = parseCollectionRequestBody(body);
  const quote = await dependencies.quotes.consume(request.quoteId, partnerId, requestId);
  await refuseIfExternalIdInUse(dependencies, partnerId, request.externalId);
  await dependencies.wallet.check({ partnerId, phone: quote.phone, currency: quote.currency, amountMinor: quote.amountMinor, feeMinor: quote.feeMinor }, requestId);
  try {
    return await withTransaction(dependencies.pool, async (client) => {
      const collection = await insertCollection(client, {
        id: randomUUID(),
        referenceId: newReferenceId(),
        partnerId,
        externalId: request.externalId,
        quoteId: quote.quoteId,
        phone: quote.phone,
        recipientName: quote.recipientName,
        currency: quote.currency,
        amountMinor: quote.amountMinor,
        feeMinor: quote.feeMinor,
        note: request.note,
        approvalWindowSeconds: dependencies.settings.approvalWindowSeconds,
      });
      await enqueueEvent(client, collectionEvent('collection.requested', collection));
      return collection;
    });
  } catch (error) {
    if (isExternalIdConflict(error)) await refuseIfExternalIdInUse(dependencies, partnerId, request.externalId);
    throw error;
  }
}

/** The 409 names the collection holding the externalId: in the message and as fields (referenceId, status as the partner sees it). */
async function refuseIfExternalIdInUse(dependencies: CollectionsDependencies, partnerId: string, externalId: string): Promise<void> {
  const holder = await findHolderOfExternalId(dependencies.pool, partnerId, externalId);
  if (!holder) return;
  const status = partnerVisibleStatus(holder.status);
  throw new PkcError('PKC_6001', `externalId already used by collection ${holder.referenceId} (status ${status})`, {
    fields: { referenceId: holder.referenceId, status },
  });
}
