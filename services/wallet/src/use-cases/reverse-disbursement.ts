import { randomUUID } from 'node:crypto';
import { enqueueEvent } from '@pwa/bus';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { majorUnitsText, type Currency } from '@pwa/money';
import { buildPosting } from '../domain/posting';
import { disbursementReversedEvent } from '../events/reversal-events';
import { newTransactionId } from '../domain/transaction-id';
import { lockAccountsAndReadClock } from '../store/account-store';
import { lockUserById } from '../store/user-store';
import { claimTransferWithEntries } from '../store/transfer-store';
import {
  accountsMovedBy,
  findPostedTransfersNamed,
  findReversalOf,
  insertReversalAudit,
  oneReversalPerDisbursementConstraint,
  type EarlierReversal,
  type PostedTransferToReverse,
  type ReversalTarget,
} from '../store/reversal-store';
import { retryOnTransientConflict } from '../store/transactions';
import { OperatorRefusal } from './operator-refusal';

export type { ReversalTarget };

export interface ReverseDisbursementRequest {
  target: ReversalTarget;
  /** Why, in the operator's words (1 to 500 characters); kept in the audit record. */
  reason: string;
  /** Who ran it (the OS user or --operator; the checker's name through the admin route); kept in the audit record. */
  operator: string;
  /**
   * Through the back-office (decision 0069): the approval request id, which becomes the reversal's
   * transfer id, and the person and approval kept in the audit record. The CLI gives neither.
   */
  approved?: { requestId: string; operatorId: string; makerId: string; checkerId: string };
}

export interface BalanceChange {
  beforeMinor: bigint;
  afterMinor: bigint;
}

export interface ReversalSummary {
  disbursement: PostedTransferToReverse;
  reversal: { transferId: string; transactionId: string; postedAt: Date };
  currency: Currency;
  amountMinor: bigint;
  user: BalanceChange & { phone: string | null };
  partner: BalanceChange & { partnerId: string };
  reason: string;
  operator: string;
}

/**
 * The operator's reversal of a disbursement sent in error (decision 0053): its own balanced
 * posting of kind 'reversal', user wallet -amount and partner +amount, named on the partner's
 * statement by the disbursement's referenceId and externalId. The fee stays earned. It ignores the
 * user's account, KYC and wallet status (a correction, not a payment), but never takes more than
 * the user's wallet holds (refused here; the ledger's CHECK backs it). The audit record and the
 * wallet.disbursement_reversed event (outbox; decision 0063) are written in the same transaction,
 * so the partner is told of every reversal, once, and of nothing that was not posted.
 *
 * Once per disbursement: the transaction locks the user's row first (the lock every posting of the
 * user takes first), so a second reversal of the same disbursement waits for the first and then
 * finds its audit record; the audit's UNIQUE decides should anything bypass that lock. Every refusal
 * is an OperatorRefusal and posts nothing.
 */
export async function reverseDisbursement(pool: Pool, request: ReverseDisbursementRequest): Promise<ReversalSummary> {
  const disbursement = await findDisbursement(pool, request.target);
  try {
    return await retryOnTransientConflict(() => withTransaction(pool, (client) => reverseUnderLocks(client, disbursement, request)));
  } catch (error) {
    if (!isOneReversalViolation(error)) throw error;
    const earlier = await findReversalOf(pool, disbursement.transferId);
    throw new OperatorRefusal(earlier ? alreadyReversed(disbursement, earlier) : `${nameOf(disbursement)} was reversed at the same time by another operator; nothing was posted`);
  }
}

export async function findDisbursement(pool: Pool, target: ReversalTarget): Promise<PostedTransferToReverse> {
  const named = await findPostedTransfersNamed(pool, target);
  const label = 'referenceId' in target ? `referenceId ${target.referenceId}` : `transactionId ${target.transactionId}`;
  const [first] = named;
  if (!first) throw new OperatorRefusal(`No posted transfer in the ledger has ${label}; check it (a disbursement's PKD-… or its TXN-…); nothing was posted`);
  if (first.kind !== 'disbursement') {
    throw new OperatorRefusal(`${label} is a ${first.kind} (${first.transactionId}), not a disbursement: only a disbursement can be reversed; nothing was posted`);
  }
  return first;
}

async function reverseUnderLocks(client: PoolClient, disbursement: PostedTransferToReverse, request: ReverseDisbursementRequest): Promise<ReversalSummary> {
  const { userId, partnerId } = disbursement;
  if (userId === null || partnerId === null) throw new Error(`disbursement ${disbursement.transferId} names no user or no partner`);
  if (!(await lockUserById(client, userId))) throw new Error(`the user of disbursement ${disbursement.transferId} cannot be read`);
  // After the user's lock: a reversal this one waited for has committed, and this statement sees it.
  const earlier = await findReversalOf(client, disbursement.transferId);
  if (earlier) throw new OperatorRefusal(alreadyReversed(disbursement, earlier));

  const { userWalletAccountId, partnerAccountId } = await accountsMovedBy(client, disbursement.transferId);
  if (userWalletAccountId === undefined || partnerAccountId === undefined) throw new Error(`disbursement ${disbursement.transferId} has no wallet or partner entry`);
  const { balances, now } = await lockAccountsAndReadClock(client, [userWalletAccountId, partnerAccountId]);
  const userBeforeMinor = balances.get(userWalletAccountId) ?? 0n;
  const partnerBeforeMinor = balances.get(partnerAccountId) ?? 0n;
  const { amountMinor, currency } = disbursement;
  if (userBeforeMinor < amountMinor) {
    throw new OperatorRefusal(
      `The user's ${currency} wallet holds ${majorUnitsText(userBeforeMinor)}; reversing ${nameOf(disbursement)} needs ${majorUnitsText(amountMinor)}. ` +
        'A reversal never takes more than the wallet holds; nothing was posted',
    );
  }

  const transferId = request.approved?.requestId ?? randomUUID();
  const transactionId = newTransactionId();
  const accountOfRole = { user_wallet: userWalletAccountId, partner: partnerAccountId } as const;
  const legs = buildPosting({ kind: 'reversal', currency, amountMinor, feeMinor: 0n }).legs.map((leg) => {
    if (leg.role !== 'user_wallet' && leg.role !== 'partner') throw new Error(`a reversal has no ${leg.role} leg`);
    return { accountId: accountOfRole[leg.role], amountMinor: leg.amountMinor };
  });
  const claimed = await claimTransferWithEntries(
    client,
    {
      state: 'posted',
      transferId,
      kind: 'reversal',
      transactionId,
      userId,
      partnerId,
      currency,
      amountMinor,
      feeMinor: 0n,
      reference: `reversal of ${disbursement.transactionId}`,
      postedAt: now,
      referenceId: disbursement.referenceId,
      externalId: disbursement.externalId,
    },
    legs,
  );
  if (!claimed) throw new Error(`the fresh transfer id ${transferId} was already taken`);
  await insertReversalAudit(client, {
    reversalTransferId: transferId,
    reversedTransferId: disbursement.transferId,
    reason: request.reason,
    operator: request.operator,
    approval: request.approved === undefined ? null : { operatorId: request.approved.operatorId, makerId: request.approved.makerId, checkerId: request.approved.checkerId },
  });
  const event = disbursementReversedEvent({
    partnerId,
    referenceId: disbursement.referenceId,
    disbursementTransactionId: disbursement.transactionId,
    reversalTransactionId: transactionId,
    currency,
    amountMinor,
    reversedAt: now,
  });
  if (event) await enqueueEvent(client, event);
  return {
    disbursement,
    reversal: { transferId, transactionId, postedAt: now },
    currency,
    amountMinor,
    user: { phone: disbursement.userPhone, beforeMinor: userBeforeMinor, afterMinor: userBeforeMinor - amountMinor },
    partner: { partnerId, beforeMinor: partnerBeforeMinor, afterMinor: partnerBeforeMinor + amountMinor },
    reason: request.reason,
    operator: request.operator,
  };
}

function nameOf(disbursement: PostedTransferToReverse): string {
  return `disbursement ${disbursement.referenceId ?? disbursement.transactionId}`;
}

function alreadyReversed(disbursement: PostedTransferToReverse, earlier: EarlierReversal): string {
  return (
    `${nameOf(disbursement)} was already reversed by ${earlier.transactionId} (transfer ${earlier.reversalTransferId}) ` +
    `at ${earlier.createdAt.toISOString()}, by ${earlier.operator}; a disbursement is reversed at most once; nothing was posted`
  );
}

function isOneReversalViolation(error: unknown): boolean {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && constraint === oneReversalPerDisbursementConstraint;
}
