import type { PoolClient } from '@pwa/db';
import type { BatchRecipientFacts } from '../domain/batch-decisions';
import { limitWindowsAt, sameLimitWindows, type LimitWindows } from '../domain/limit-windows';
import type { BatchFactsIntent, BatchFactsReading, BatchUser } from '../store/batch-facts-store';

/** How a batch's facts are read: under locks (the posting) or in a read-only snapshot (the check). */
export type BatchFactsReader = (client: PoolClient, intent: BatchFactsIntent, windows: LimitWindows) => Promise<BatchFactsReading>;

/**
 * The facts in the windows of the database's clock, the one that counts: they are read for the
 * application clock's windows and, in the rare case the database clock falls in other windows,
 * read again (under the same locks, or in the same snapshot, so the same rows) for the database's.
 */
export async function readBatchFactsInDatabaseWindows(client: PoolClient, intent: BatchFactsIntent, read: BatchFactsReader): Promise<BatchFactsReading> {
  const windows = limitWindowsAt(new Date());
  const facts = await read(client, intent, windows);
  const databaseWindows = limitWindowsAt(facts.now);
  return sameLimitWindows(windows, databaseWindows) ? facts : read(client, intent, databaseWindows);
}

/** Every known recipient of the batch, by normalised phone, as the batch decisions take them. */
export function recipientsByPhone(users: readonly BatchUser[], facts: BatchFactsReading): Map<string, BatchRecipientFacts> {
  return new Map(
    users.flatMap((user) => {
      const reading = facts.recipients.get(user.userId);
      if (!reading) return [];
      const wallet = reading.wallet && { ...reading.wallet, balanceMinor: facts.balances.get(reading.wallet.accountId) ?? 0n };
      return [[user.phone, { userId: user.userId, accountStatus: user.accountStatus, kycStatus: user.kycStatus, wallet, limits: reading.limits, usage: reading.usage }]];
    }),
  );
}

/** The partner's balance in the batch's currency; 0 when the partner has no account in it. */
export function partnerBalanceOf(facts: BatchFactsReading): bigint {
  return facts.partnerAccountId === undefined ? 0n : (facts.balances.get(facts.partnerAccountId) ?? 0n);
}
