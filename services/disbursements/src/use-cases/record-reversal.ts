import { processOnce, type ProcessOutcome } from '@pwa/bus';
import type { WalletDisbursementReversedEvent } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { toApiAmount } from '@pwa/money';
import { disbursementReversedEvent } from '../events/disbursement-events';
import { findByReferenceId, recordReversal } from '../store/disbursement-store';

export const walletEventsConsumer = 'disbursements.wallet-events';

/** A reversal the service cannot record yet: the bus redelivers the event (and dead-letters it after its delivery limit). */
export class ReversalNotRecordableYetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReversalNotRecordableYetError';
  }
}

/**
 * The operator reversed a completed disbursement in the wallet (wallet.disbursement_reversed,
 * decision 0063): records the reversal on the disbursement and writes disbursement.reversed to the
 * outbox, in the transaction that marks the event processed, so the partner is told once. A
 * disbursement this service still has as processing (its settlement not recorded yet) is retried
 * by redelivery; one that is not the wallet's (another partner, another transaction, another
 * amount) or unknown is logged and left alone: a retry cannot change it.
 */
export async function recordDisbursementReversal(dependencies: { pool: Pool; logger: Logger }, event: WalletDisbursementReversedEvent): Promise<ProcessOutcome> {
  const { data } = event;
  const log = dependencies.logger.child({ eventId: event.eventId, referenceId: data.referenceId, reversalTransactionId: data.reversalTransactionId });
  return processOnce(dependencies.pool, walletEventsConsumer, event.eventId, async (client) => {
    const disbursement = await findByReferenceId(client, data.referenceId);
    if (disbursement === undefined) {
      log.error('wallet.disbursement_reversed names no disbursement of this service; nothing recorded');
      return;
    }
    if (disbursement.status === 'processing') {
      throw new ReversalNotRecordableYetError(`disbursement ${data.referenceId} is still processing here; its reversal is recorded once it is settled`);
    }
    const sameDisbursement =
      disbursement.partnerId === data.partnerId.toLowerCase() &&
      disbursement.status === 'completed' &&
      disbursement.transactionId === data.disbursementTransactionId &&
      disbursement.currency === data.currency &&
      toApiAmount(disbursement.amountMinor) === data.amount;
    if (!sameDisbursement) {
      log.error({ status: disbursement.status }, 'wallet.disbursement_reversed disagrees with the disbursement (partner, status, transaction or amount); nothing recorded');
      return;
    }
    if (disbursement.reversal !== undefined) {
      log.warn({ recordedReversalTransactionId: disbursement.reversal.transactionId }, 'disbursement already reversed; nothing recorded');
      return;
    }
    const reversal = { transactionId: data.reversalTransactionId, reversedAt: new Date(data.reversedAt) };
    const recorded = await recordReversal(client, disbursement, reversal, disbursementReversedEvent(disbursement, reversal));
    log.info({ recorded }, 'disbursement reversal recorded');
  });
}
