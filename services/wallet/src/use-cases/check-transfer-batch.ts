import type { Currency } from '@pwa/money';
import type { PkcCode } from '@pwa/errors';
import { withTransaction, type Pool, type PoolClient } from '@pwa/db';
import { decideBatchCheck, type BatchCheckDecision, type BatchCheckItemIntent } from '../domain/batch-check-decisions';
import { readBatchFactsWithoutLocks, readUsersByPhones, type BatchUser } from '../store/batch-facts-store';
import { partnerBalanceOf, readBatchFactsInDatabaseWindows, recipientsByPhone } from './batch-facts';

export interface TransferBatchCheckRequest {
  partnerId: string;
  currency: Currency;
  /** Disbursements only (the bulk payout flow), as the posting batch. */
  type: 'disbursement';
  /** phone: the normalised phone, or undefined when the caller's text is not a Liberian mobile number. */
  items: readonly BatchCheckItemIntent[];
}

export type TransferBatchCheckItemResult = { outcome: 'passed'; phone: string; recipientName: string } | { outcome: 'refused'; code: PkcCode };

export interface TransferBatchCheckResult {
  /** The partner's balance in the currency (0 without an account), for the caller to weigh the passing items' total against. */
  partnerBalanceMinor: bigint;
  /** One per item, in the request's order. */
  results: TransferBatchCheckItemResult[];
}

/**
 * The read-only check of a whole bulk (issue 20, decision 0055): the posting batch's two reads
 * (the users by phone, then every fact of the batch in one statement) without FOR UPDATE, in one
 * read-only REPEATABLE READ snapshot, and the posting batch's decisions with the partner's balance
 * left to the caller. It writes nothing, consumes no limit budget and holds no row lock, so it
 * never makes a posting wait.
 */
export async function checkTransferBatch(pool: Pool, request: TransferBatchCheckRequest): Promise<TransferBatchCheckResult> {
  return withTransaction(pool, (client) => checkInSnapshot(client, request), 'read_only_snapshot');
}

async function checkInSnapshot(client: PoolClient, request: TransferBatchCheckRequest): Promise<TransferBatchCheckResult> {
  const phones = request.items.flatMap((item) => (item.phone === undefined ? [] : [item.phone]));
  const users = await readUsersByPhones(client, phones);
  const intent = { transferIds: [], userIds: users.map((user) => user.userId), partnerId: request.partnerId, currency: request.currency, type: request.type };
  const facts = await readBatchFactsInDatabaseWindows(client, intent, readBatchFactsWithoutLocks);
  const decisions = decideBatchCheck(request.items, { type: request.type, currency: request.currency, recipients: recipientsByPhone(users, facts) });
  const usersById = new Map(users.map((user) => [user.userId, user]));
  return { partnerBalanceMinor: partnerBalanceOf(facts), results: decisions.map((decision) => resultOf(decision, usersById)) };
}

function resultOf(decision: BatchCheckDecision, usersById: ReadonlyMap<string, BatchUser>): TransferBatchCheckItemResult {
  if (decision.decision === 'refused') return { outcome: 'refused', code: decision.code };
  const user = usersById.get(decision.userId);
  if (!user) throw new Error(`user ${decision.userId} passed the checks but was not read`);
  return { outcome: 'passed', phone: user.phone, recipientName: user.name };
}
