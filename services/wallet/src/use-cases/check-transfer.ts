import { PkcError } from '@pwa/errors';
import type { Pool } from '@pwa/db';
import type { AccountStatus, KycStatus } from '../domain/user';
import { firstFailingCheck, type TransferIntent } from '../domain/transfer-checks';
import { limitWindowsAt } from '../domain/limit-windows';
import { noUsage } from '../domain/tier-limits';
import { usageWithin } from '../store/limit-store';
import { readCheckFacts } from '../store/transfer-facts-store';
import { withReadOnlySnapshot } from '../store/transactions';

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
    // One statement reads the user, the wallet, the partner's balance, the rule and the clock;
    // the limit windows come from that clock, so the usage is the snapshot's second statement.
    const facts = await readCheckFacts(client, request);
    const { user, wallet, partnerBalanceMinor, limits, now } = facts;
    // No account is the first rule, and nothing else about the user can be loaded without one.
    if (!user) throw new PkcError('PKC_3001');
    const usage = limits.found ? await usageWithin(client, user.userId, request.type, request.currency, limitWindowsAt(now), now) : noUsage;
    const refusal = firstFailingCheck(request, { user, wallet, partnerBalanceMinor, limits, usage });
    if (refusal) throw new PkcError(refusal);
    return {
      recipient: { name: user.name, phone: user.phone, accountStatus: user.accountStatus, kycStatus: user.kycStatus, hasWallet: wallet !== undefined },
      userBalanceMinor: wallet?.balanceMinor ?? 0n,
      partnerBalanceMinor,
    };
  });
}
