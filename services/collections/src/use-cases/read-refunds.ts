import { PkcError, echoInput } from '@pwa/errors';
import type { Refund } from '../domain/refund';
import { findRefundByReferenceId } from '../store/refund-store';
import type { CollectionsDependencies } from './dependencies';

/** GET /partner/v1/refund/{referenceId}: 404 PKC_6002 when unknown, 403 PKC_6005 when another partner's. */
export async function refundForPartner(dependencies: CollectionsDependencies, partnerId: string, referenceId: string): Promise<Refund> {
  const refund = await findRefundByReferenceId(dependencies.pool, referenceId);
  if (!refund) throw new PkcError('PKC_6002', `No refund ${echoInput(referenceId)}`);
  if (refund.partnerId !== partnerId) throw new PkcError('PKC_6005');
  return refund;
}
