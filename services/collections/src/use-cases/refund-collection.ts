import { randomUUID } from 'node:crypto';
import { PkcError, echoInput, isPkcCode, type PkcCode } from '@pwa/errors';
import { formatMinor, toApiAmount, type MinorUnits } from '@pwa/money';
import type { Collection } from '../domain/collection';
import { partnerVisibleStatus } from '../domain/collection-state-machine';
import { newRefundReferenceId, refundableMinorOf, type Refund } from '../domain/refund';
import { parseRefundRequest, type RefundRequest } from '../domain/refund-request';
import { findById } from '../store/collection-store';
import { findRefundHoldingExternalId, isRefundExternalIdConflict, reserveRefund } from '../store/refund-store';
import { collectionForPartner } from './read-collections';
import type { CollectionsDependencies } from './dependencies';
import { postReservedRefund } from './settle-refund';
import { refundCheckRefusalsPassedOn } from '../upstream/wallet-client';

/**
 * POST /partner/v1/collection/{referenceId}/refund, as a story: validate the body; read the
 * partner's collection (404 PKC_6002, 403 PKC_6005) and refuse one that is not completed (409
 * PKC_6004); answer a retry with the refund that holds the externalId (409 PKC_6001); refuse an
 * amount beyond what is left to refund (409 PKC_6006); ask the wallet, read-only,
 * whether the user can still receive and the partner's balance covers it (their codes, nothing
 * written); reserve the amount and the externalId in one statement (the database decides both
 * under concurrency); post; settle with the event. Answers the refund: completed, or processing
 * when the wallet did not answer (the recovery worker finishes it). A refusal of the posting
 * itself (the facts changed after the check) fails the refund, which gives the amount back, and
 * answers the refusal's code naming the refund.
 */
export async function refundCollection(dependencies: CollectionsDependencies, partnerId: string, referenceId: string, body: unknown, requestId?: string): Promise<Refund> {
  const request = parseRefundRequest(body);
  const collection = await collectionForPartner(dependencies, partnerId, referenceId);
  ensureCompleted(collection);
  // The externalId before the amount (the documented order): a retry after a lost answer must be
  // told of the refund it made (409 PKC_6001 naming it), not that nothing is left to refund
  // because of that very refund.
  const holder = await findRefundHoldingExternalId(dependencies.pool, partnerId, request.externalId);
  if (holder) throw externalIdTakenBy(holder);
  const amountMinor = refundAmountOf(collection, request);
  await dependencies.wallet.checkRefund({ partnerId, phone: collection.phone, currency: collection.currency, amountMinor }, requestId);
  const reserved = await reserve(dependencies, collection, request, amountMinor);
  const settled = await postReservedRefund(dependencies, reserved);
  return answerOf(settled);
}

/** Only a completed collection moved money that can be given back. */
function ensureCompleted(collection: Collection): void {
  if (collection.status !== 'completed') {
    throw new PkcError('PKC_6004', `Collection ${collection.referenceId} is ${partnerVisibleStatus(collection.status)}; only a completed collection can be refunded`);
  }
}

/** The amount to refund: the one asked, or all that is left; within what is left. */
function refundAmountOf(collection: Collection, request: RefundRequest): MinorUnits {
  const refundable = refundableMinorOf(collection);
  const amountMinor = request.amountMinor ?? refundable;
  if (amountMinor <= 0n) throw new PkcError('PKC_6006', `Collection ${collection.referenceId} is refunded in full; nothing is left to refund`);
  if (amountMinor > refundable) throw exceedsRefundable(collection.referenceId, amountMinor, refundable);
  return amountMinor;
}

function exceedsRefundable(referenceId: string, amountMinor: MinorUnits, refundable: MinorUnits): PkcError {
  return new PkcError('PKC_6006', `Refund of ${formatMinor(amountMinor)} exceeds the ${formatMinor(refundable)} left to refund on collection ${referenceId}; nothing was refunded`, {
    fields: { refundableAmount: toApiAmount(refundable) },
  });
}

/** The 409 for an externalId held by a refund in progress or completed: it names the holder. */
function externalIdTakenBy(holder: Pick<Refund, 'referenceId' | 'status'>): PkcError {
  return new PkcError('PKC_6001', `externalId already used by refund ${holder.referenceId} (status ${holder.status})`, {
    fields: { referenceId: holder.referenceId, status: holder.status },
  });
}

/**
 * Reserves amount and externalId in one statement. Refused: a concurrent refund took what was
 * left (PKC_6006, read again to say how much is left) or the externalId (PKC_6001 naming it).
 */
async function reserve(dependencies: CollectionsDependencies, collection: Collection, request: RefundRequest, amountMinor: MinorUnits): Promise<Refund> {
  let reserved: Refund | undefined;
  try {
    reserved = await reserveRefund(dependencies.pool, {
      id: randomUUID(),
      referenceId: newRefundReferenceId(),
      collectionId: collection.id,
      partnerId: collection.partnerId,
      externalId: request.externalId,
      amountMinor,
      reason: request.reason,
      recoveryDelayMs: dependencies.settings.recoveryDelayMs,
    });
  } catch (error) {
    if (!isRefundExternalIdConflict(error)) throw error;
    const holder = await findRefundHoldingExternalId(dependencies.pool, collection.partnerId, request.externalId);
    throw holder ? externalIdTakenBy(holder) : new PkcError('PKC_6001', `externalId ${echoInput(request.externalId)} is being used by another refund; retry`);
  }
  if (reserved) return reserved;
  const current = (await findById(dependencies.pool, collection.id)) ?? collection;
  throw exceedsRefundable(collection.referenceId, amountMinor, refundableMinorOf(current));
}

/**
 * A completed or processing refund is the answer; a failed one answers its code, naming the refund:
 * the wallet's refusals a refund documents (the user can no longer receive, the partner's balance)
 * as they are, any other code as PKC_7002, so the answer stays within the contract.
 */
function answerOf(refund: Refund): Refund {
  if (refund.status !== 'failed') return refund;
  const failureCode = refund.failureCode ?? 'PKC_7002';
  const code: PkcCode = isPkcCode(failureCode) && refundCheckRefusalsPassedOn.has(failureCode) ? failureCode : 'PKC_7002';
  const because = (refund.failureMessage ?? 'The refund failed').replace(/\.$/, '');
  throw new PkcError(code, `${because}. Refund ${refund.referenceId} is recorded as failed; no money moved`, {
    fields: { referenceId: refund.referenceId, status: refund.status },
  });
}
