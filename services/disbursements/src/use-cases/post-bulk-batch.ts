import type { WalletTransferBatchResult } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { isUpstreamFailure, neverReachedUpstream } from '@pwa/http';
import type { Logger } from '@pwa/logging';
import { finalStatusOf } from '../domain/bulk';
import { applySettlement, failedSettlement, timedOutSettlement, type Disbursement, type Settlement } from '../domain/disbursement';
import { bulkCompletedEvent } from '../events/bulk-events';
import { disbursementEvent } from '../events/disbursement-events';
import { claimBulkBatch, completeBulk, findBulk, readBulkProgress, releaseBulkItems, settleBulkItems, type ItemSettlement } from '../store/bulk-store';
import type { WalletClient } from '../upstream/wallet-client';

export interface BulkBatchDependencies {
  pool: Pool;
  wallet: WalletClient;
  logger: Logger;
  settings: BulkBatchSettings;
}

export interface BulkBatchSettings {
  /** Items per wallet batch, at most the wallet's 200 (walletTransferBatchItemsMax). */
  batchItemsMax: number;
  /** How long the wallet may take to answer a batch. */
  batchTimeoutMs: number;
  /** How long a claim lasts; above batchTimeoutMs, so a live processor's items are not claimed again. */
  leaseMs: number;
}

export interface BatchOutcome {
  /** Items claimed (0: nothing to do). */
  claimed: number;
  /** Items this pass moved to a final state. */
  settled: number;
}

/**
 * One pass of the bulk processor (decision 0055): claim the next batch (up to 200 processing
 * items of one bulk, leased), post it to the wallet in one call (one transaction there: the
 * partner's row is taken once for the batch, each item its own posting decided in order, so the
 * balance and the limits are checked again per item), settle every item with its event in one
 * statement, and complete the bulk with bulk.completed when its last item is final.
 *
 * Exactly once, whatever crashes where: the item's disbursement id is its wallet transfer id, so
 * a batch sent again (a lost answer, a processor that died and whose lease ran out) answers each
 * item's first outcome and moves nothing more; a settlement only moves a processing item.
 */
export async function postNextBulkBatch(dependencies: BulkBatchDependencies): Promise<BatchOutcome> {
  const { pool, settings } = dependencies;
  const items = await claimBulkBatch(pool, settings.leaseMs, settings.batchItemsMax);
  const first = items[0];
  if (first === undefined || first.bulkId === null) return { claimed: 0, settled: 0 };
  const results = await postBatch(dependencies, items);
  if (results === undefined) return { claimed: items.length, settled: 0 };
  const settled = await settleBulkItems(pool, items.map((item, index) => itemSettlementOf(item, results[index])));
  await completeBulkIfFinished(pool, first.bulkId);
  return { claimed: items.length, settled };
}

/** The wallet's results, or undefined when it gave none (the items wait for their lease, or are released when the wallet never saw them). */
async function postBatch(dependencies: BulkBatchDependencies, items: readonly Disbursement[]): Promise<WalletTransferBatchResult[] | undefined> {
  const [first] = items;
  if (!first) return [];
  try {
    return await dependencies.wallet.postTransferBatch({
      partnerId: first.partnerId,
      currency: first.currency,
      timeoutMs: dependencies.settings.batchTimeoutMs,
      items: items.map((item) => ({
        transferId: item.disbursementId,
        phone: item.phone,
        amountMinor: item.amountMinor,
        feeMinor: item.feeMinor,
        reference: item.note ?? `Disbursement ${item.referenceId}`,
        referenceId: item.referenceId,
        externalId: item.externalId,
      })),
    });
  } catch (error) {
    if (!isUpstreamFailure(error)) throw error;
    const ids = items.map((item) => item.disbursementId);
    if (neverReachedUpstream(error)) {
      await releaseBulkItems(dependencies.pool, ids);
      dependencies.logger.warn({ err: error, bulkId: first.bulkId, items: ids.length }, 'bulk batch did not reach the wallet; released for the next pass');
    } else {
      dependencies.logger.warn({ err: error, bulkId: first.bulkId, items: ids.length }, 'bulk batch got no answer; it is sent again when its lease runs out');
    }
    return undefined;
  }
}

function itemSettlementOf(item: Disbursement, result: WalletTransferBatchResult | undefined): ItemSettlement {
  if (result === undefined || result.transferId !== item.disbursementId) throw new Error(`the wallet's results do not match the batch at ${item.referenceId}`);
  const settlement = settlementOf(result);
  const settledItem = applySettlement(item, settlement);
  return { disbursementId: item.disbursementId, settlement, event: disbursementEvent(settledItem, settledItem.completedAt ?? new Date()) };
}

function settlementOf(result: WalletTransferBatchResult): Settlement {
  switch (result.outcome) {
    case 'posted':
      return { status: 'completed', transactionId: result.transactionId, completedAt: new Date(result.postedAt) };
    case 'refused':
      return failedSettlement(result.code);
    case 'cancelled':
      // Nothing of ours cancels a bulk item's id (the settlement sweep leaves bulk items alone); an operator's cancellation ends it as a timeout would.
      return timedOutSettlement();
  }
}

/** Completes the bulk with its event once no item is pending; answers whether it did. */
export async function completeBulkIfFinished(pool: Pool, bulkId: string): Promise<boolean> {
  const progress = await readBulkProgress(pool, bulkId);
  const status = finalStatusOf(progress);
  if (status === undefined) return false;
  const bulk = await findBulk(pool, bulkId);
  if (!bulk || bulk.status !== 'processing') return false;
  return (await completeBulk(pool, bulkId, status, bulkCompletedEvent(bulk, progress, status, new Date()))) !== undefined;
}
