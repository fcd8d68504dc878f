import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { applySettlement, type Disbursement, type Settlement, type UnsuccessfulSettlement } from '../domain/disbursement';
import { disbursementEvent } from '../events/disbursement-events';
import { findById, settleWithEvent } from '../store/disbursement-store';
import type { WalletClient } from '../upstream/wallet-client';

/**
 * Moves a processing disbursement to its final state and writes its event to the outbox in the
 * same statement, so the event exists if and only if the state change commits. When someone else
 * (the sweep, say) settled it first, their state stands and nothing more is written.
 */
export async function recordSettlement(pool: Pool, disbursement: Disbursement, settlement: Settlement): Promise<Disbursement> {
  const expected = applySettlement(disbursement, settlement);
  const event = disbursementEvent(expected, expected.completedAt ?? new Date());
  const settled = await settleWithEvent(pool, disbursement.disbursementId, settlement, event);
  if (settled) return settled;
  const current = await findById(pool, disbursement.disbursementId);
  if (!current) throw new Error(`disbursement ${disbursement.disbursementId} vanished`);
  return current;
}

export interface SettleDependencies {
  pool: Pool;
  wallet: WalletClient;
  logger: Logger;
}

/**
 * Removes all doubt about a transfer whose posting gave no answer: cancelling its id either makes
 * sure it can never post (then `ifCancelled` is the final state) or reports that it already posted
 * (then the disbursement is completed). When even the cancellation gets no answer, the disbursement
 * stays processing, still holding its externalId, for the settlement sweep to try again.
 */
export async function settleByCancelling(
  dependencies: SettleDependencies,
  disbursement: Disbursement,
  ifCancelled: UnsuccessfulSettlement,
  requestId?: string,
): Promise<Disbursement> {
  let answer: Awaited<ReturnType<WalletClient['cancelTransfer']>>;
  try {
    answer = await dependencies.wallet.cancelTransfer(disbursement.disbursementId, requestId);
  } catch (error) {
    dependencies.logger.error({ err: error, referenceId: disbursement.referenceId }, 'cancellation got no answer; the disbursement stays processing for the sweep');
    return disbursement;
  }
  if (answer.state === 'posted') {
    return recordSettlement(dependencies.pool, disbursement, { status: 'completed', transactionId: answer.transactionId, completedAt: answer.postedAt });
  }
  return recordSettlement(dependencies.pool, disbursement, ifCancelled);
}
