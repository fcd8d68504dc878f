import { enqueueEvent } from '@pwa/bus';
import { withTransaction, type Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import type { Disbursement } from '../domain/disbursement';
import { disbursementEvent } from '../events/disbursement-events';
import { findById, settle, type Settlement } from '../store/disbursement-store';
import type { WalletClient } from '../upstreams/wallet-client';

/**
 * Moves a processing disbursement to its final state and writes its event to the outbox in the
 * same transaction, so the event exists if and only if the state change commits. When someone else
 * (the sweep, say) settled it first, their state stands and nothing more is written.
 */
export async function recordSettlement(pool: Pool, disbursementId: string, settlement: Settlement): Promise<Disbursement> {
  return withTransaction(pool, async (client) => {
    const settled = await settle(client, disbursementId, settlement);
    if (!settled) {
      const current = await findById(client, disbursementId);
      if (!current) throw new Error(`disbursement ${disbursementId} vanished`);
      return current;
    }
    await enqueueEvent(client, disbursementEvent(settled, settled.completedAt ?? new Date()));
    return settled;
  });
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
  ifCancelled: Exclude<Settlement, { status: 'completed' }>,
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
    return recordSettlement(dependencies.pool, disbursement.disbursementId, { status: 'completed', transactionId: answer.transactionId, completedAt: answer.postedAt });
  }
  return recordSettlement(dependencies.pool, disbursement.disbursementId, ifCancelled);
}
