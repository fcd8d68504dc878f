import { fourEyesProblemOf, walletAdminRefusalCodes, type WalletPartnerFundingRequest } from '@pwa/contracts';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { majorUnitsText } from '@pwa/money';
import { ensurePartnerAccount, findPartnerAccount, lockAccounts, systemAccountId } from '../store/account-store';
import { findOperatorFunding, insertOperatorFunding } from '../store/operator-funding-store';
import { findTransfer, type TransferRecord } from '../store/transfer-store';
import { retryOnTransientConflict } from '../store/transactions';
import { postOperatorTransfer } from './operator-postings';

/** An approved four-eyes funding as the admin route parsed it (libs/contracts wallet-admin). */
export type AdminFundingRequest = WalletPartnerFundingRequest;

export interface AdminFundingOutcome {
  transferId: string;
  transactionId: string;
  /** True when this transfer id had already posted: nothing moved this time. */
  replayed: boolean;
  /** The partner's balance in the currency after the posting (for a replay: now). */
  partnerBalanceMinor: bigint;
}

const kindOf = { credit: 'funding', debit: 'funding_correction' } as const;

/**
 * The back-office's approved funding (credit: funding -amount, partner +amount) or correction of
 * one (debit: partner -amount, funding +amount, a new opposite posting), executed once per approval
 * request, whose id is the transfer id (decision 0062). The posting and its record of who and why
 * (operator_fundings: the operator who executed it, the maker and the checker, the reference)
 * commit together or not at all.
 *
 * Refusals, each with nothing posted: 403 PKC_6005 without four eyes (maker = checker) or when the
 * transfer id is not the approval's; 409 PKC_6001 when the transfer id already posted something
 * else; 400 PKC_4002 when a correction exceeds the partner's balance, checked under the partner
 * account's lock (the ledger's not-negative CHECK backs it). The same request again answers the
 * first posting with `replayed`; of concurrent identical requests, the partner account's lock and
 * then the transfer id's uniqueness let one post.
 */
export async function executeAdminPartnerFunding(pool: Pool, request: AdminFundingRequest): Promise<AdminFundingOutcome> {
  const problem = fourEyesProblemOf(request);
  if (problem !== undefined) throw new PkcError(walletAdminRefusalCodes.notApproved, problem);
  const earlier = await findTransfer(pool, request.transferId);
  if (earlier) return replayOf(pool, earlier, request, await currentPartnerBalance(pool, request));
  // A credit opens the partner's account on first use; a debit needs money already there.
  if (request.direction === 'credit') await ensurePartnerAccount(pool, request.partnerId, request.currency);
  return retryOnTransientConflict(() => withTransaction(pool, (client) => postUnderPartnerLock(client, request)));
}

async function postUnderPartnerLock(client: PoolClient, request: AdminFundingRequest): Promise<AdminFundingOutcome> {
  const partnerAccount = await findPartnerAccount(client, request.partnerId, request.currency);
  if (!partnerAccount) {
    if (request.direction === 'debit') throw balanceRefusal(request, 0n);
    throw new Error('the partner account was opened but cannot be read');
  }
  const balances = await lockAccounts(client, [partnerAccount.accountId]);
  const beforeMinor = balances.get(partnerAccount.accountId) ?? 0n;
  // Under the lock: a concurrent call with this id that held it first has committed, and this statement sees it.
  const earlier = await findTransfer(client, request.transferId);
  if (earlier) return replayOf(client, earlier, request, beforeMinor);
  if (request.direction === 'debit' && beforeMinor < request.amountMinor) throw balanceRefusal(request, beforeMinor);

  const outcome = await postOperatorTransfer(client, {
    transferId: request.transferId,
    kind: kindOf[request.direction],
    currency: request.currency,
    amountMinor: request.amountMinor,
    userId: null,
    partnerId: request.partnerId,
    reference: request.reference,
    accountOf: { partner: partnerAccount.accountId, funding: await systemAccountId(client, 'funding', request.currency) },
  });
  if (outcome.state !== 'posted' || outcome.replayed) {
    // The id was taken, without this partner's lock, by a posting that has committed since.
    const winner = await findTransfer(client, request.transferId);
    if (!winner) throw new Error(`transfer ${request.transferId} was claimed but cannot be read`);
    return replayOf(client, winner, request, beforeMinor);
  }
  await insertOperatorFunding(client, {
    transferId: request.transferId,
    direction: request.direction,
    operatorId: request.actor.operatorId,
    operatorName: request.actor.displayName,
    makerId: request.approval.makerId,
    checkerId: request.approval.checkerId,
    reference: request.reference,
  });
  const movedMinor = request.direction === 'credit' ? request.amountMinor : -request.amountMinor;
  return { transferId: request.transferId, transactionId: outcome.transactionId, replayed: false, partnerBalanceMinor: beforeMinor + movedMinor };
}

/**
 * The answer for a transfer id that has posted already: the same funding (same partner, currency,
 * amount and direction, posted through this route) is answered as it was, moving nothing; anything
 * else under that id is 409 PKC_6001, moving nothing.
 */
async function replayOf(db: Pool | PoolClient, earlier: TransferRecord, request: AdminFundingRequest, partnerBalanceMinor: bigint): Promise<AdminFundingOutcome> {
  const sameFunding =
    earlier.state === 'posted' &&
    earlier.kind === kindOf[request.direction] &&
    earlier.partnerId === request.partnerId &&
    earlier.currency === request.currency &&
    earlier.amountMinor === request.amountMinor &&
    (await findOperatorFunding(db, request.transferId))?.direction === request.direction;
  if (!sameFunding || earlier.state !== 'posted') {
    throw new PkcError(
      walletAdminRefusalCodes.transferIdUsedOtherwise,
      `Transfer id ${request.transferId} was used for another funding (a different partner, currency, amount or direction, or another posting); nothing was moved`,
    );
  }
  return { transferId: earlier.transferId, transactionId: earlier.transactionId, replayed: true, partnerBalanceMinor };
}

async function currentPartnerBalance(pool: Pool, request: AdminFundingRequest): Promise<bigint> {
  return (await findPartnerAccount(pool, request.partnerId, request.currency))?.balanceMinor ?? 0n;
}

function balanceRefusal(request: AdminFundingRequest, balanceMinor: bigint): PkcError {
  return new PkcError(
    walletAdminRefusalCodes.partnerBalanceInsufficient,
    `The partner's ${request.currency} balance is ${majorUnitsText(balanceMinor)}; the correction needs ${majorUnitsText(request.amountMinor)}. ` +
      'A correction never takes more than the partner holds; nothing was posted',
  );
}
