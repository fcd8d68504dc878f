import { adminApprovalProblemOf, adminChangeRefusalCodes, type WalletDisbursementReversalRequest } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import type { Currency } from '@pwa/money';
import { findPartnerAccount } from '../store/account-store';
import { findPostedTransfersNamed, findReversalOf } from '../store/reversal-store';
import { findTransfer } from '../store/transfer-store';
import { OperatorRefusal } from './operator-refusal';
import { findDisbursement, reverseDisbursement } from './reverse-disbursement';

export interface AdminReversalOutcome {
  requestId: string;
  replayed: boolean;
  referenceId: string;
  disbursementTransactionId: string;
  reversalTransactionId: string;
  partnerId: string;
  currency: Currency;
  amountMinor: bigint;
  partnerBalanceMinor: bigint;
}

/**
 * The back-office's approved reversal of a disbursement (`disbursement.reverse`, decision 0069):
 * the CLI's use case (decision 0053: the posting, its audit record and the
 * wallet.disbursement_reversed event in one transaction, once per disbursement), with the approval
 * request id as the reversal's transfer id and the person and approval in the audit record.
 *
 * Sent again (a retry, two executors, a restart), the reversal this request posted is answered
 * `replayed` and nothing moves: the second call waits on the user's lock, finds the first one's
 * reversal, and recognises it by its transfer id. Refusals move nothing: 403 PKC_6005 without four
 * eyes, 404 PKC_6002 for a referenceId the ledger does not know, 409 PKC_6004 when the disbursement
 * was reversed by another request or the user's wallet holds less than the amount, 409 PKC_6001
 * when the request id was used for another posting.
 */
export async function executeAdminDisbursementReversal(pool: Pool, request: WalletDisbursementReversalRequest): Promise<AdminReversalOutcome> {
  const problem = adminApprovalProblemOf(request);
  if (problem !== undefined) throw new PkcError(adminChangeRefusalCodes.notApproved, problem);
  const named = await findPostedTransfersNamed(pool, { referenceId: request.referenceId });
  if (named[0]?.kind !== 'disbursement') throw new PkcError(adminChangeRefusalCodes.targetNotFound, `No completed disbursement in the ledger has referenceId ${request.referenceId}; nothing was posted`);
  const earlier = await replayOf(pool, request);
  if (earlier) return earlier;
  try {
    const summary = await reverseDisbursement(pool, {
      target: { referenceId: request.referenceId },
      reason: request.reason,
      operator: request.actor.displayName,
      approved: { requestId: request.requestId, operatorId: request.actor.operatorId, makerId: request.approval.makerId, checkerId: request.approval.checkerId },
    });
    return {
      requestId: request.requestId,
      replayed: false,
      referenceId: request.referenceId,
      disbursementTransactionId: summary.disbursement.transactionId,
      reversalTransactionId: summary.reversal.transactionId,
      partnerId: summary.partner.partnerId,
      currency: summary.currency,
      amountMinor: summary.amountMinor,
      partnerBalanceMinor: summary.partner.afterMinor,
    };
  } catch (error) {
    if (!(error instanceof OperatorRefusal)) throw error;
    // A concurrent call with this request id may have reversed it first: that is this request's reversal.
    const concurrent = await replayOf(pool, request);
    if (concurrent) return concurrent;
    throw new PkcError(adminChangeRefusalCodes.targetCannotChange, error.message);
  }
}

/** The reversal this request id posted, answered as it was; undefined when it posted none; 409 when the id holds another posting. */
async function replayOf(pool: Pool, request: WalletDisbursementReversalRequest): Promise<AdminReversalOutcome | undefined> {
  const posted = await findTransfer(pool, request.requestId);
  if (!posted) return undefined;
  const disbursement = await findDisbursement(pool, { referenceId: request.referenceId });
  const reversal = await findReversalOf(pool, disbursement.transferId);
  if (posted.state !== 'posted' || posted.kind !== 'reversal' || reversal?.reversalTransferId !== request.requestId || disbursement.partnerId === null) {
    throw new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${request.requestId} was used for another posting; nothing was posted`);
  }
  const partnerAccount = await findPartnerAccount(pool, disbursement.partnerId, disbursement.currency);
  return {
    requestId: request.requestId,
    replayed: true,
    referenceId: request.referenceId,
    disbursementTransactionId: disbursement.transactionId,
    reversalTransactionId: reversal.transactionId,
    partnerId: disbursement.partnerId,
    currency: disbursement.currency,
    amountMinor: disbursement.amountMinor,
    partnerBalanceMinor: partnerAccount?.balanceMinor ?? 0n,
  };
}
