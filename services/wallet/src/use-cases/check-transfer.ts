import { PkcError } from '@pwa/errors';
import type { Pool } from '@pwa/db';
import type { AccountStatus, KycStatus } from '../domain/user';
import { firstFailingCheck, type TransferIntent } from '../domain/transfer-checks';
import { limitWindowsAt, sameLimitWindows } from '../domain/limit-windows';
import { noUsage } from '../domain/tier-limits';
import { limitedTypeOf } from '../domain/transaction-type';
import { usageWithin } from '../store/limit-store';
import { readCheckFacts } from '../store/transfer-facts-store';

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
 * consistent snapshot (one statement, in the common case). It writes nothing, so it never consumes
 * limit budget and never opens a partner account. A refund is checked for the account rules and
 * the partner's balance only (decision 0053). Throws a PkcError with the first failing rule's code.
 */
export async function checkTransfer(pool: Pool, request: TransferCheckRequest): Promise<TransferCheckResult> {
  // One statement (one snapshot) reads everything, the usage for the windows of this process's
  // clock among it. The database clock is the one that counts: when it falls in other windows (a
  // boundary between the two clocks' readings, or a skewed host), the usage is read again for its windows.
  const windows = limitWindowsAt(new Date());
  const { user, wallet, partnerBalanceMinor, limits, usage: usageInWindows, now } = await readCheckFacts(pool, request, windows);
  // No account is the first rule, and nothing else about the user can be loaded without one.
  if (!user) throw new PkcError('PKC_3001');
  const databaseWindows = limitWindowsAt(now);
  const limitedType = limitedTypeOf(request.type);
  const usage = limitedType === undefined || limits?.found !== true
    ? noUsage
    : sameLimitWindows(windows, databaseWindows)
      ? usageInWindows
      : await usageWithin(pool, user.userId, limitedType, request.currency, databaseWindows);
  const refusal = firstFailingCheck(request, { user, wallet, partnerBalanceMinor, limits, usage });
  if (refusal) throw new PkcError(refusal);
  return {
    recipient: { name: user.name, phone: user.phone, accountStatus: user.accountStatus, kycStatus: user.kycStatus, hasWallet: wallet !== undefined },
    userBalanceMinor: wallet?.balanceMinor ?? 0n,
    partnerBalanceMinor,
  };
}
