import type { Currency } from '@pwa/money';
import type { PkcCode } from '@pwa/errors';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { decideBatch, type BatchDecision, type BatchItemIntent } from '../domain/batch-decisions';
import { buildPosting, type AccountRole } from '../domain/posting';
import { newTransactionId } from '../domain/transaction-id';
import { lockUsersByPhones, readBatchFactsAndLockAccounts, type BatchFactsIntent, type BatchFactsReading, type BatchUser } from '../store/batch-facts-store';
import { claimTransfersWithEntries, findTransfers, type BatchEntryToInsert } from '../store/batch-postings-store';
import type { PostedTransferRecord, TransferRecord } from '../store/transfer-store';
import { retryOnTransientConflict } from '../store/transactions';
import { outcomeOf, type PostingOutcome } from './transfer-outcome';
import { partnerBalanceOf, readBatchFactsInDatabaseWindows, recipientsByPhone } from './batch-facts';
import { requireAccount } from './post-transfer';

export interface TransferBatchItem {
  transferId: string;
  /** The normalised phone, or undefined when the caller's text is not a Liberian mobile number. */
  phone: string | undefined;
  amountMinor: bigint;
  feeMinor: bigint;
  reference: string | null;
  referenceId: string | null;
  externalId: string | null;
}

export interface TransferBatchRequest {
  partnerId: string;
  currency: Currency;
  /** Disbursements only for now (the bulk payout flow); the decisions and statements serve collections too. */
  type: 'disbursement';
  items: readonly TransferBatchItem[];
}

/** One item's result: a posting outcome (new or replayed, or cancelled earlier) or the first failing rule. */
export type BatchItemResult = PostingOutcome | { state: 'refused'; transferId: string; code: PkcCode };

/**
 * Posts a batch of one partner's transfers in ONE database transaction (decision 0054): each
 * posted item is its own balanced posting with its own transfer row and transaction id, decided
 * as if the items had been posted one by one in the request's order; a refused item writes
 * nothing and does not fail the others. Three statements whatever the batch's size: lock the
 * users (ascending user id), read every item's facts and lock the ledger accounts (ascending
 * account id), claim the posted items' ids and insert all their entries. The lock order widens the
 * single posting's (a user, then its accounts) without crossing it: all users, then all accounts,
 * then fee revenue by the entries' trigger. Posting the batch again answers every item's first
 * outcome and moves nothing, so a caller that lost the answer (or crashed) simply sends it again.
 */
export async function postTransferBatch(pool: Pool, request: TransferBatchRequest): Promise<BatchItemResult[]> {
  return retryOnTransientConflict(() => withTransaction(pool, (client) => postBatchUnderLocks(client, request)));
}

async function postBatchUnderLocks(client: PoolClient, request: TransferBatchRequest): Promise<BatchItemResult[]> {
  const phones = request.items.flatMap((item) => (item.phone === undefined ? [] : [item.phone]));
  const users = await lockUsersByPhones(client, phones);
  const facts = await readBatchFactsInDatabaseWindows(client, factsIntentOf(request, users), readBatchFactsAndLockAccounts);
  const earlier = new Map(facts.earlier.map((record) => [record.transferId, record]));
  const decisions = decideBatch(request.items.map(intentOf), {
    type: request.type,
    currency: request.currency,
    settledTransferIds: new Set(earlier.keys()),
    recipients: recipientsByPhone(users, facts),
    partnerBalanceMinor: partnerBalanceOf(facts),
  });
  const postings = decisions.flatMap((decision, index) => {
    const item = request.items[index];
    return decision.decision === 'post' && item ? [postingOf(request, item, decision, facts)] : [];
  });
  const claimed = await claimTransfersWithEntries(client, postings.map((posting) => posting.transfer), postings.flatMap((posting) => posting.entries));
  // Ids this batch decided to post but another call claimed first (a cancellation takes no user lock): the winner's record is the answer.
  const lost = postings.map((posting) => posting.transfer.transferId).filter((transferId) => !claimed.has(transferId));
  const winners = await findTransfers(client, lost);
  const posted = new Map(postings.map((posting) => [posting.transfer.transferId, posting.transfer]));
  return decisions.map((decision) => resultOf(decision, { earlier, winners, posted, claimed }));
}

function factsIntentOf(request: TransferBatchRequest, users: readonly BatchUser[]): BatchFactsIntent {
  return {
    transferIds: request.items.map((item) => item.transferId),
    userIds: users.map((user) => user.userId),
    partnerId: request.partnerId,
    currency: request.currency,
    type: request.type,
  };
}

function intentOf(item: TransferBatchItem): BatchItemIntent {
  return { transferId: item.transferId, phone: item.phone, amountMinor: item.amountMinor, feeMinor: item.feeMinor };
}

interface ItemPosting {
  transfer: PostedTransferRecord;
  entries: BatchEntryToInsert[];
}

function postingOf(request: TransferBatchRequest, item: TransferBatchItem, decision: Extract<BatchDecision, { decision: 'post' }>, facts: BatchFactsReading): ItemPosting {
  const accountOf: Record<AccountRole, string | undefined> = {
    user_wallet: decision.walletAccountId,
    partner: facts.partnerAccountId,
    fee_revenue: decision.feeMinor > 0n ? facts.feeRevenueAccountId : undefined,
    funding: undefined,
  };
  const posting = buildPosting({ kind: request.type, currency: request.currency, amountMinor: decision.amountMinor, feeMinor: decision.feeMinor });
  return {
    transfer: {
      state: 'posted',
      transferId: item.transferId,
      kind: request.type,
      transactionId: newTransactionId(),
      userId: decision.userId,
      partnerId: request.partnerId,
      currency: request.currency,
      amountMinor: decision.amountMinor,
      feeMinor: decision.feeMinor,
      reference: item.reference,
      postedAt: facts.now,
      referenceId: item.referenceId,
      externalId: item.externalId,
    },
    entries: posting.legs.map((leg) => ({ transferId: item.transferId, accountId: requireAccount(accountOf, leg.role), amountMinor: leg.amountMinor })),
  };
}

interface Settled {
  earlier: ReadonlyMap<string, TransferRecord>;
  winners: ReadonlyMap<string, TransferRecord>;
  posted: ReadonlyMap<string, PostedTransferRecord>;
  claimed: ReadonlySet<string>;
}

function resultOf(decision: BatchDecision, settled: Settled): BatchItemResult {
  const { transferId } = decision;
  switch (decision.decision) {
    case 'refused':
      return { state: 'refused', transferId, code: decision.code };
    case 'settled_earlier':
      return outcomeOf(requireRecord(settled.earlier, transferId));
    case 'post': {
      const transfer = settled.posted.get(transferId);
      if (settled.claimed.has(transferId) && transfer) {
        return { state: 'posted', transferId, transactionId: transfer.transactionId, postedAt: transfer.postedAt, replayed: false };
      }
      return outcomeOf(requireRecord(settled.winners, transferId));
    }
  }
}

function requireRecord<T>(records: ReadonlyMap<string, T>, transferId: string): T {
  const record = records.get(transferId);
  if (record === undefined) throw new Error(`transfer ${transferId} was settled but cannot be read`);
  return record;
}
