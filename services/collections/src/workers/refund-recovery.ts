import { claimDueRefundPostings } from '../store/refund-store';
import { completeRefund, failRefund, postReservedRefund } from '../use-cases/settle-refund';
import type { CollectionsDependencies } from '../use-cases/dependencies';
import { abandonedPostingCode, type RecoverySettings } from './posting-recovery';

/**
 * Re-drives refunds the wallet did not answer for, as the posting recovery does for approvals: a
 * lease per claimed row (next_posting_at moved ahead with backoff), postings idempotent by the
 * refund's id, and after `postingAttemptsMax` attempts the transfer id is cancelled instead: the
 * wallet then confirms nothing will ever post (→ failed, the amount refundable again) or reports
 * the posting it already made (→ completed).
 */
export async function recoverPendingRefunds(dependencies: CollectionsDependencies, settings: RecoverySettings): Promise<void> {
  const claimed = await claimDueRefundPostings(dependencies.pool, settings.batchSize, settings.delayMs, settings.delayMsMax);
  for (const refund of claimed) {
    if (refund.postingAttempts <= settings.postingAttemptsMax) {
      await postReservedRefund(dependencies, refund);
      continue;
    }
    const cancellation = await dependencies.wallet.cancel(refund.id);
    if (cancellation.kind === 'cancelled') await failRefund(dependencies, refund, abandonedPostingCode);
    else if (cancellation.kind === 'posted') await completeRefund(dependencies, refund, cancellation.transactionId, cancellation.postedAt);
    else dependencies.logger.error({ referenceId: refund.referenceId, attempts: refund.postingAttempts }, 'refund posting abandoned but the wallet cannot confirm the cancellation; still processing');
  }
}
