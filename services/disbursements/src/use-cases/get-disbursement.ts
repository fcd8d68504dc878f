import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Disbursement } from '../domain/disbursement';
import { isReferenceId } from '../domain/reference-id';
import { findByReferenceId } from '../store/disbursement-store';

/** The status call: a reference that is malformed or unknown is 6002; another partner's is 6005. */
export async function getDisbursement(pool: Pool, partnerId: string, referenceId: string): Promise<Disbursement> {
  const disbursement = isReferenceId(referenceId) ? await findByReferenceId(pool, referenceId) : undefined;
  if (!disbursement) throw new PkcError('PKC_6002', 'No disbursement has this referenceId');
  if (disbursement.partnerId !== partnerId) throw new PkcError('PKC_6005');
  return disbursement;
}
