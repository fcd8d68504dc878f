import { PkcError } from '@pwa/errors';
import type { Pool } from '@pwa/db';
import type { AccountStatus, KycStatus } from '../domain/user';
import { firstFailingCheck, type TransferIntent } from '../domain/transfer-checks';
import { findUserByPhoneWithClock } from '../store/user-store';
import { findPartnerAccount } from '../store/account-store';
import { withReadOnlySnapshot } from '../store/transactions';
import { loadLimitFacts } from './transfer-facts';

export interface TransferCheckRequest extends TransferIntent {
  partnerId: string;
  /** In the +231 form. */
  phone: string;
}

export interface TransferCheckResult {
  recipient: { name: string; phone: string; accountStatus: AccountStatus; kycStatus: KycStatus; hasWallet: boolean };
  userBalanceMinor: bigint;
  partnerBalanceMinor: bigint;
}

/**
 * The read-only pre-validation behind a quote: every rule in the contract's order, against one
 * consistent snapshot. It writes nothing, so it never consumes limit budget and never opens a
 * partner account. Throws a PkcError with the first failing rule's code.
 */
export async function checkTransfer(pool: Pool, request: TransferCheckRequest): Promise<TransferCheckResult> {
  return withReadOnlySnapshot(pool, async (client) => {
    // The user comes with their wallets, and the database clock (limit windows) is read by the same statement.
    const found = await findUserByPhoneWithClock(client, request.phone);
    const partnerAccount = await findPartnerAccount(client, request.partnerId, request.currency);
    const partnerBalanceMinor = partnerAccount?.balanceMinor ?? 0n;
    // No account is the first rule, and nothing else about the user can be loaded without one.
    if (!found) throw new PkcError('PKC_3001');
    const { user, now } = found;
    const wallet = user.wallets.find((candidate) => candidate.currency === request.currency);
    const limitFacts = await loadLimitFacts(client, user, request, now);
    const refusal = firstFailingCheck(request, { user, wallet, partnerBalanceMinor, ...limitFacts });
    if (refusal) throw new PkcError(refusal);
    return {
      recipient: { name: user.name, phone: user.phone, accountStatus: user.accountStatus, kycStatus: user.kycStatus, hasWallet: wallet !== undefined },
      userBalanceMinor: wallet?.balanceMinor ?? 0n,
      partnerBalanceMinor,
    };
  });
}
