import { PkcError } from '@pwa/errors';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { buildPosting, type AccountRole } from '../domain/posting';
import { firstFailingCheck } from '../domain/transfer-checks';
import { newTransactionId } from '../domain/transaction-id';
import { lockUserByPhone } from '../store/user-store';
import { ensurePartnerAccount } from '../store/account-store';
import { claimTransferWithEntries, findTransfer } from '../store/transfer-store';
import { readPostingFactsAndLockAccounts } from '../store/transfer-facts-store';
import { usageWithin } from '../store/limit-store';
import { limitWindowsAt, sameLimitWindows } from '../domain/limit-windows';
import { noUsage } from '../domain/tier-limits';
import { limitedTypeOf } from '../domain/transaction-type';
import { retryOnTransientConflict } from '../store/transactions';
import type { PostDelayPoint, PostingFaultInjection } from '../config';
import type { TransferCheckRequest } from './check-transfer';
import { outcomeOf, type PostingOutcome } from './transfer-outcome';

export interface TransferRequest extends TransferCheckRequest {
  /** The caller's idempotency id: posting it again moves nothing and answers the first result. */
  transferId: string;
  reference: string | null;
  /** The public referenceId and the partner's externalId, kept on the ledger's transfer for the statement. */
  referenceId?: string | null;
  externalId?: string | null;
}

/**
 * Posts a collection, disbursement or refund: in one transaction, under row locks, it re-runs every
 * check, consumes the limit budget (the posting itself is the usage later checks count; a refund,
 * of its own kind, is never counted and checks no limit: decision 0053) and writes the balanced
 * entries. Lock order, the same for every posting: the user's row, then the ledger
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

/**
 * Three statements between BEGIN and COMMIT: lock the user; read the facts the lock protects (an
 * earlier posting of this id, the accounts, the rule, the usage, the clock) and lock the ledger
 * accounts; claim the id and write the entries. A replay (an earlier posting of this id) is found
 * by the second and answered with the first outcome. See store/transfer-facts-store.ts for why the
 * first two cannot be one.
 */
async function postUnderLocks(client: PoolClient, request: TransferRequest, faults: PostingFaultInjection): Promise<PostingOutcome> {
  const user = await lockUserByPhone(client, request.phone);
  // No account is the first rule, and nothing else about the user can be loaded without one. (A
  // transfer id is only ever posted for an existing user, so there is no earlier posting to answer.)
  if (!user) throw new PkcError('PKC_3001');
  const windows = limitWindowsAt(new Date());
  const facts = await readPostingFactsAndLockAccounts(
    client,
    { transferId: request.transferId, userId: user.userId, tier: user.tier, partnerId: request.partnerId, currency: request.currency, type: request.type },
    windows,
  );
  // An earlier call with this id committed, before this one or while this one waited for the user's lock.
  if (facts.earlier) return outcomeOf(facts.earlier);
  const { wallet, partnerAccountId, now } = facts;
  // The database clock counts: in the rare case it falls in other windows than this process's, the
  // usage is read again (under the same user lock, so it is the same rows either way).
  const databaseWindows = limitWindowsAt(now);
  const limitedType = limitedTypeOf(request.type);
  const usage = limitedType === undefined || facts.limits?.found !== true
    ? noUsage
    : sameLimitWindows(windows, databaseWindows)
      ? facts.usage
      : await usageWithin(client, user.userId, limitedType, request.currency, databaseWindows);
  const refusal = firstFailingCheck(request, {
    user,
    wallet: wallet && { status: wallet.status, balanceMinor: facts.lockedBalances.get(wallet.accountId) ?? 0n },
    partnerBalanceMinor: partnerAccountId === undefined ? 0n : (facts.lockedBalances.get(partnerAccountId) ?? 0n),
    limits: facts.limits,
    usage,
  });
  if (refusal) throw new PkcError(refusal);
  if (!wallet || partnerAccountId === undefined) throw new Error('checks passed without a wallet and a partner account');

  await injectedDelay(faults, 'before_claim');
  const transactionId = newTransactionId();
  const accountOf: Record<AccountRole, string | undefined> = {
    user_wallet: wallet.accountId,
    partner: partnerAccountId,
    fee_revenue: request.feeMinor > 0n ? facts.feeRevenueAccountId : undefined,
    funding: undefined,
  };
  const posting = buildPosting({ kind: request.type, currency: request.currency, amountMinor: request.amountMinor, feeMinor: request.feeMinor });
  const claimed = await claimTransferWithEntries(
    client,
    {
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
      referenceId: request.referenceId ?? null,
      externalId: request.externalId ?? null,
    },
    posting.legs.map((leg) => ({ accountId: requireAccount(accountOf, leg.role), amountMinor: leg.amountMinor })),
  );
  if (!claimed) return outcomeOfWinner(client, request.transferId);
  await injectedDelay(faults, 'before_commit');
  return { state: 'posted', transferId: request.transferId, transactionId, postedAt: now, replayed: false };
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
