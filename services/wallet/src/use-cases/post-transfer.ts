import { PkcError } from '@pwa/errors';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { buildPosting, type AccountRole } from '../domain/posting';
import { firstFailingCheck } from '../domain/transfer-checks';
import { newTransactionId } from '../domain/transaction-id';
import { lockUserByPhone, findWalletAccount } from '../store/user-store';
import { ensurePartnerAccount, findPartnerAccount, lockAccounts, systemAccountId } from '../store/account-store';
import { claimTransferForPosting, databaseNow, findTransfer, insertEntries } from '../store/transfer-store';
import { retryOnTransientConflict } from '../store/transactions';
import type { PostDelayPoint, PostingFaultInjection } from '../config';
import type { TransferCheckRequest } from './check-transfer';
import { loadLimitFacts } from './transfer-facts';
import { outcomeOf, type PostingOutcome } from './transfer-outcome';

export interface TransferRequest extends TransferCheckRequest {
  /** The caller's idempotency id: posting it again moves nothing and answers the first result. */
  transferId: string;
  reference: string | null;
}

/**
 * Posts a collection or disbursement: in one transaction, under row locks, it re-runs every check,
 * consumes the limit budget (the posting itself is the usage later checks count) and writes the
 * balanced entries. Lock order, the same for every posting: the user's row, then the ledger
 * accounts of the user's wallet and the partner in ascending account id; the fee revenue account is
 * locked last, by the entry that credits it, and is never held while waiting for another lock.
 * Throws a PkcError with the first failing rule's code; nothing is written then. `faults` is the
 * sandbox fault injection of the service's configuration (none unless the caller passes one).
 */
export async function postTransfer(
  pool: Pool,
  request: TransferRequest,
  faults: PostingFaultInjection,
): Promise<PostingOutcome> {
  const earlier = await findTransfer(pool, request.transferId);
  if (earlier) return outcomeOf(earlier);
  // A collection credits the partner, whose account opens on first use. Opening it outside the
  // posting keeps the posting's lock order simple; an empty account is harmless if the posting fails.
  if (request.type === 'collection') await ensurePartnerAccount(pool, request.partnerId, request.currency);
  return retryOnTransientConflict(() => withTransaction(pool, (client) => postUnderLocks(client, request, faults)));
}

/**
 * Sandbox fault injection (WALLET_POST_DELAY_MS, refused in production by the config schema): a
 * slow posting at a chosen point, so the callers' deadline and cancellation paths can be tested
 * against the real service. The delay holds the user's row lock, as a slow database would.
 */
async function injectedDelay(faults: PostingFaultInjection, point: PostDelayPoint): Promise<void> {
  if (faults.postDelayMs <= 0 || faults.postDelayPoint !== point) return;
  await new Promise((resolve) => setTimeout(resolve, faults.postDelayMs));
}

async function postUnderLocks(client: PoolClient, request: TransferRequest, faults: PostingFaultInjection): Promise<PostingOutcome> {
  const user = await lockUserByPhone(client, request.phone);
  // An earlier call with this id may have committed while this one waited for the user's lock.
  const earlier = await findTransfer(client, request.transferId);
  if (earlier) return outcomeOf(earlier);
  // No account is the first rule, and nothing else about the user can be loaded without one.
  if (!user) throw new PkcError('PKC_3001');

  const wallet = await findWalletAccount(client, user.userId, request.currency);
  const partnerAccount = await findPartnerAccount(client, request.partnerId, request.currency);
  // Everything that needs only the user's lock is read before the account locks, so the partner's
  // and the fee revenue's rows (shared by every posting of that partner or currency) are held for
  // as few statements as possible. Limit usage is the user's own postings, which the user's lock
  // already serialises; the clock is read after that lock, so it is never earlier than a posting
  // of this user that this one waited for.
  const now = await databaseNow(client);
  const limitFacts = await loadLimitFacts(client, user, request, now);
  const feeRevenueAccountId = request.feeMinor > 0n ? await systemAccountId(client, 'fee_revenue', request.currency) : undefined;
  const lockedBalances = await lockAccounts(
    client,
    [wallet?.accountId, partnerAccount?.accountId].filter((id): id is string => id !== undefined),
  );
  const refusal = firstFailingCheck(request, {
    user,
    wallet: wallet && { status: wallet.status, balanceMinor: lockedBalances.get(wallet.accountId) ?? 0n },
    partnerBalanceMinor: partnerAccount ? (lockedBalances.get(partnerAccount.accountId) ?? 0n) : 0n,
    ...limitFacts,
  });
  if (refusal) throw new PkcError(refusal);
  if (!wallet || !partnerAccount) throw new Error('checks passed without a wallet and a partner account');

  await injectedDelay(faults, 'before_claim');
  const transactionId = newTransactionId();
  const claimed = await claimTransferForPosting(client, {
    state: 'posted',
    transferId: request.transferId,
    kind: request.type,
    transactionId,
    userId: user.userId,
    partnerId: request.partnerId,
    currency: request.currency,
    amountMinor: request.amountMinor,
    feeMinor: request.feeMinor,
    reference: request.reference,
    postedAt: now,
  });
  if (!claimed) return outcomeOfWinner(client, request.transferId);

  const accountOf: Record<AccountRole, string | undefined> = {
    user_wallet: wallet.accountId,
    partner: partnerAccount.accountId,
    fee_revenue: feeRevenueAccountId,
    funding: undefined,
  };
  const posting = buildPosting({ kind: request.type, currency: request.currency, amountMinor: request.amountMinor, feeMinor: request.feeMinor });
  await insertEntries(client, request.transferId, request.currency, posting.legs.map((leg) => ({ accountId: requireAccount(accountOf, leg.role), amountMinor: leg.amountMinor })));
  await injectedDelay(faults, 'before_commit');
  return { state: 'posted', transferId: request.transferId, transactionId, postedAt: now };
}

/** The transfer id was claimed by a concurrent posting or cancellation that has committed; its outcome is the answer. */
export async function outcomeOfWinner(client: PoolClient, transferId: string): Promise<PostingOutcome> {
  const winner = await findTransfer(client, transferId);
  if (!winner) throw new Error(`transfer ${transferId} was claimed but cannot be read`);
  return outcomeOf(winner);
}

export function requireAccount(accountOf: Record<AccountRole, string | undefined>, role: AccountRole): string {
  const accountId = accountOf[role];
  if (accountId === undefined) throw new Error(`no ledger account resolved for the ${role} leg`);
  return accountId;
}
