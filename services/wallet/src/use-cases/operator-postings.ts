import { randomUUID } from 'node:crypto';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import type { Currency } from '@pwa/money';
import { buildPosting, type AccountRole, type PostingKind } from '../domain/posting';
import { newTransactionId } from '../domain/transaction-id';
import { ensurePartnerAccount, findPartnerAccount, lockAccounts, systemAccountId } from '../store/account-store';
import { findWalletAccount, lockUserByPhone } from '../store/user-store';
import { claimTransferForPosting, databaseNow, findTransfer, insertEntries } from '../store/transfer-store';
import { retryOnTransientConflict } from '../store/transactions';
import { outcomeOfWinner, requireAccount } from './post-transfer';
import { outcomeOf, type PostingOutcome } from './transfer-outcome';
import { OperatorRefusal } from './operator-refusal';


export interface FundPartnerRequest {
  partnerId: string;
  currency: Currency;
  amountMinor: bigint;
  reference: string | null;
  /** Idempotency id; a fresh one when the operator does not give one. */
  transferId?: string;
}

/** A partner as its owner (the auth service) knows it. */
export interface KnownPartner {
  partnerId: string;
  name: string;
  status: string;
}

/** Where the operator's commands learn whether a partner id exists: the auth service, which owns partners. */
export interface PartnerLookup {
  find(partnerId: string): Promise<KnownPartner | undefined>;
}

/**
 * fund-partner as the operator runs it: the partner id is checked with its owner first, since
 * funding a mistyped id would credit an account nobody owns. An unknown id posts nothing.
 */
export async function fundKnownPartner(pool: Pool, partners: PartnerLookup, request: FundPartnerRequest): Promise<{ partner: KnownPartner; outcome: PostingOutcome }> {
  const partner = await partners.find(request.partnerId);
  if (!partner) {
    throw new OperatorRefusal(
      `The auth service knows no partner ${request.partnerId}: check the id (npm run operator -- list-partners, or show-partner <clientId>); nothing was posted`,
    );
  }
  return { partner, outcome: await fundPartner(pool, request) };
}

/**
 * A partner's bank transfer arriving: funding account -amount, partner account +amount. The funding
 * account goes negative by design; it stands for the money the operator has received from outside.
 */
export async function fundPartner(pool: Pool, request: FundPartnerRequest): Promise<PostingOutcome> {
  const transferId = request.transferId ?? randomUUID();
  const earlier = await findTransfer(pool, transferId);
  if (earlier) return outcomeOf(earlier);
  await ensurePartnerAccount(pool, request.partnerId, request.currency);
  return retryOnTransientConflict(() =>
    withTransaction(pool, async (client) => {
      const partnerAccount = await findPartnerAccount(client, request.partnerId, request.currency);
      if (!partnerAccount) throw new Error('the partner account was opened but cannot be read');
      await lockAccounts(client, [partnerAccount.accountId]);
      return postOperatorTransfer(client, {
        transferId,
        kind: 'funding',
        currency: request.currency,
        amountMinor: request.amountMinor,
        userId: null,
        partnerId: request.partnerId,
        reference: request.reference,
        accountOf: { partner: partnerAccount.accountId, funding: await systemAccountId(client, 'funding', request.currency) },
      });
    }),
  );
}

export interface CreditWalletRequest {
  phone: string;
  currency: Currency;
  amountMinor: bigint;
  transferId?: string;
}

/** Sandbox only: money for a test user out of thin air (funding account -amount, user wallet +amount). */
export async function creditWalletInSandbox(pool: Pool, environment: string, request: CreditWalletRequest): Promise<PostingOutcome> {
  if (environment !== 'sandbox') throw new OperatorRefusal('credit-wallet is a sandbox tool; it is refused in production');
  const transferId = request.transferId ?? randomUUID();
  const earlier = await findTransfer(pool, transferId);
  if (earlier) return outcomeOf(earlier);
  return retryOnTransientConflict(() =>
    withTransaction(pool, async (client) => {
      const user = await lockUserByPhone(client, request.phone);
      if (!user) throw new OperatorRefusal(`No user with phone ${request.phone}`);
      const wallet = await findWalletAccount(client, user.userId, request.currency);
      if (!wallet) throw new OperatorRefusal(`${request.phone} has no ${request.currency} wallet`);
      await lockAccounts(client, [wallet.accountId]);
      return postOperatorTransfer(client, {
        transferId,
        kind: 'sandbox_credit',
        currency: request.currency,
        amountMinor: request.amountMinor,
        userId: user.userId,
        partnerId: null,
        reference: 'sandbox credit',
        accountOf: { user_wallet: wallet.accountId, funding: await systemAccountId(client, 'funding', request.currency) },
      });
    }),
  );
}

export interface OperatorPosting {
  transferId: string;
  kind: Extract<PostingKind, 'funding' | 'funding_correction' | 'sandbox_credit'>;
  currency: Currency;
  amountMinor: bigint;
  userId: string | null;
  partnerId: string | null;
  reference: string | null;
  accountOf: Partial<Record<AccountRole, string>>;
}

/**
 * An operator's posting inside the caller's transaction, its accounts already locked: claims the
 * transfer id (the database's uniqueness decides between concurrent calls) and inserts the legs.
 * When the id was taken by a posting that has committed, its outcome (replayed) is the answer and
 * nothing is written.
 */
export async function postOperatorTransfer(client: PoolClient, posting: OperatorPosting): Promise<PostingOutcome> {
  const now = await databaseNow(client);
  const transactionId = newTransactionId();
  const claimed = await claimTransferForPosting(client, {
    state: 'posted',
    transferId: posting.transferId,
    kind: posting.kind,
    transactionId,
    userId: posting.userId,
    partnerId: posting.partnerId,
    currency: posting.currency,
    amountMinor: posting.amountMinor,
    feeMinor: 0n,
    reference: posting.reference,
    postedAt: now,
  });
  if (!claimed) return outcomeOfWinner(client, posting.transferId);
  const accountOf = { user_wallet: undefined, partner: undefined, fee_revenue: undefined, funding: undefined, ...posting.accountOf };
  const legs = buildPosting({ kind: posting.kind, currency: posting.currency, amountMinor: posting.amountMinor, feeMinor: 0n }).legs;
  await insertEntries(client, posting.transferId, posting.currency, legs.map((leg) => ({ accountId: requireAccount(accountOf, leg.role), amountMinor: leg.amountMinor })));
  return { state: 'posted', transferId: posting.transferId, transactionId, postedAt: now, replayed: false };
}
