import type { Pool } from '@pwa/db';
import type { Currency } from '@pwa/money';
import { nameBasedUuid } from '../domain/name-based-id';
import { sandboxPartnerFunding, sandboxUsers } from '../domain/sandbox-users';
import type { User } from '../domain/user';
import { creditWalletInSandbox, fundPartner } from './operator-postings';
import { ensureUser } from './manage-users';
import { OperatorRefusal } from './operator-refusal';
import { showUser } from './manage-users';

export interface SeedResult {
  users: (User & { purpose: string; created: boolean })[];
  partnerFunding: { partnerId: string; currency: Currency; transactionId: string }[];
}

/**
 * Creates the documented sandbox users, or restores their profiles and wallet statuses when they
 * exist, and credits their opening balances once: each credit has a transfer id derived from the
 * phone and currency, so a second run finds it posted and moves nothing. With a partner id, funds
 * that partner once the same way. Refused outside the sandbox.
 */
export async function seedSandbox(pool: Pool, environment: string, partnerId?: string): Promise<SeedResult> {
  if (environment !== 'sandbox') throw new OperatorRefusal('seed-sandbox is a sandbox tool; it is refused in production');
  const users: SeedResult['users'] = [];
  for (const sandboxUser of sandboxUsers) {
    const { created } = await ensureUser(pool, sandboxUser);
    for (const wallet of sandboxUser.wallets) {
      if (wallet.openingBalanceMinor === 0n) continue;
      await creditWalletInSandbox(pool, environment, {
        phone: sandboxUser.phone,
        currency: wallet.currency,
        amountMinor: wallet.openingBalanceMinor,
        transferId: nameBasedUuid(`sandbox-opening-balance:${sandboxUser.phone}:${wallet.currency}`),
      });
    }
    users.push({ ...(await showUser(pool, sandboxUser.phone)), purpose: sandboxUser.purpose, created });
  }
  const partnerFunding: SeedResult['partnerFunding'] = [];
  if (partnerId !== undefined) {
    for (const funding of sandboxPartnerFunding) {
      const outcome = await fundPartner(pool, {
        partnerId,
        currency: funding.currency,
        amountMinor: funding.amountMinor,
        reference: 'sandbox opening funding',
        transferId: nameBasedUuid(`sandbox-partner-funding:${partnerId}:${funding.currency}`),
      });
      if (outcome.state === 'posted') partnerFunding.push({ partnerId, currency: funding.currency, transactionId: outcome.transactionId });
    }
  }
  return { users, partnerFunding };
}
