import type { Pool } from '@pwa/db';
import { claimTransferForCancellation, findTransfer } from '../store/transfer-store';
import { outcomeOf, type PostingOutcome } from './transfer-outcome';

/**
 * Makes sure a transfer id never posts, or reports that it already has. The tombstone and a posting
 * both claim the id with an INSERT on its primary key, so when they race Postgres makes the later
 * one wait for the earlier one's transaction and then find its row: exactly one outcome, whatever
 * the timing. Cancelling twice, or cancelling an unknown id, is fine: the id is then cancelled.
 */
export async function cancelTransfer(pool: Pool, transferId: string): Promise<PostingOutcome> {
  if (await claimTransferForCancellation(pool, transferId)) return { state: 'cancelled', transferId };
  const winner = await findTransfer(pool, transferId);
  if (!winner) throw new Error(`transfer ${transferId} was claimed but cannot be read`);
  return outcomeOf(winner);
}
