import { enqueueEvent } from '@pwa/bus';
import { withTransaction, type PoolClient } from '@pwa/db';
import type { Refund } from '../domain/refund';
import { failureCodeOf, failureMessageFor } from '../domain/failure-reason';
import { refundEvent } from '../events/refund-events';
import { findRefundById, markRefundCompleted, markRefundFailed } from '../store/refund-store';
import type { CollectionsDependencies } from './dependencies';

/**
 * Posts a reserved (processing) refund through the wallet with the refund's id as the transferId,
 * so a repeated attempt (the recovery worker, another replica) can never post twice. Posted →
 * completed with refund.completed; refused by the wallet → failed with refund.failed, the amount
 * refundable again and nothing moved; no answer → stays processing for the recovery worker.
 */
export async function postReservedRefund(dependencies: CollectionsDependencies, refund: Refund): Promise<Refund> {
  const result = await dependencies.wallet.postRefund(refund.id, {
    partnerId: refund.partnerId,
    phone: refund.phone,
    currency: refund.currency,
    amountMinor: refund.amountMinor,
    reference: refund.reason ?? `Refund of ${refund.collectionReferenceId}`,
    referenceId: refund.referenceId,
    externalId: refund.externalId,
  });
  switch (result.kind) {
    case 'posted':
      return completeRefund(dependencies, refund, result.transactionId, result.postedAt);
    case 'refused':
      dependencies.logger.info({ referenceId: refund.referenceId, code: result.code }, 'refund posting refused; the refund failed');
      return failRefund(dependencies, refund, result.code);
    case 'unavailable':
      dependencies.logger.warn({ referenceId: refund.referenceId, reason: result.reason }, 'wallet unavailable; the recovery worker will re-drive the refund');
      return refund;
  }
}

export function completeRefund(dependencies: CollectionsDependencies, refund: Refund, transactionId: string, postedAt: Date): Promise<Refund> {
  return settle(dependencies, refund, (client) => markRefundCompleted(client, refund.id, transactionId, postedAt));
}

/** processing → failed with refund.failed; a code outside the catalogue becomes PKC_7002. */
export function failRefund(dependencies: CollectionsDependencies, refund: Refund, failureCode: string): Promise<Refund> {
  const code = failureCodeOf(failureCode);
  return settle(dependencies, refund, (client) => markRefundFailed(client, refund.id, { code, message: failureMessageFor(code) }));
}

/**
 * The one way refunds end: the conditional UPDATE and the event in one transaction. When another
 * actor (a replica's recovery attempt) settled it first, its outcome is the outcome.
 */
async function settle(dependencies: CollectionsDependencies, refund: Refund, end: (client: PoolClient) => Promise<Refund | undefined>): Promise<Refund> {
  const settled = await withTransaction(dependencies.pool, async (client) => {
    const changed = await end(client);
    if (changed) await enqueueEvent(client, refundEvent(changed.status === 'completed' ? 'refund.completed' : 'refund.failed', changed));
    return changed;
  });
  return settled ?? (await findRefundById(dependencies.pool, refund.id)) ?? refund;
}
