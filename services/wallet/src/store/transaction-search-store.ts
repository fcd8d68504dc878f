import type { Queryable } from '@pwa/db';
import type { z } from '@pwa/config';
import type { WalletAdminTransactionQuery, walletAdminTransactionSchema } from '@pwa/contracts';

/** A row as the wire carries it (amounts as strings of minor units). */
type TransactionRow = z.input<typeof walletAdminTransactionSchema>;

/**
 * Posted transactions across partners for the back-office (decision 0069), newest first by
 * (posted_at, transfer_id). A phone is found by the users' unique index and narrows by the user's
 * own postings; a referenceId or externalId alone filters the newest postings until a page is full
 * (no index of its own, as decision 0053 chose for the referenceId: an index would cost every
 * posting a write for a rare operator search); a date range bounds that scan.
 */
export async function searchTransactions(db: Queryable, query: WalletAdminTransactionQuery): Promise<{ transactions: TransactionRow[]; next: { postedAt: string; id: string } | null }> {
  const values: unknown[] = [];
  const placeholder = (value: unknown): string => {
    values.push(value);
    return `$${values.length}`;
  };
  const conditions = [`t.state = 'posted'`];
  if (query.referenceId !== undefined) conditions.push(`t.reference_id = ${placeholder(query.referenceId)}`);
  if (query.externalId !== undefined) conditions.push(`t.external_id = ${placeholder(query.externalId)}`);
  if (query.phone !== undefined) conditions.push(`t.user_id = (SELECT user_id FROM users WHERE phone = ${placeholder(query.phone)})`);
  if (query.partnerId !== undefined) conditions.push(`t.partner_id = ${placeholder(query.partnerId)}`);
  if (query.from !== undefined) conditions.push(`t.posted_at >= ${placeholder(query.from)}::timestamptz`);
  if (query.to !== undefined) conditions.push(`t.posted_at < ${placeholder(query.to)}::timestamptz`);
  if (query.afterPostedAt !== undefined && query.afterId !== undefined) {
    conditions.push(`(t.posted_at, t.transfer_id) < (${placeholder(query.afterPostedAt)}::timestamptz, ${placeholder(query.afterId)}::uuid)`);
  }
  const limit = placeholder(query.pageSize + 1);
  const result = await db.query<TransactionRow>(
    `SELECT t.transfer_id AS "transferId", t.transaction_id AS "transactionId", t.kind, t.partner_id AS "partnerId", u.phone, t.currency,
            t.amount_minor::text AS "amountMinor", t.fee_minor::text AS "feeMinor", t.reference_id AS "referenceId", t.external_id AS "externalId",
            to_char(t.posted_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "postedAt"
       FROM transfers t LEFT JOIN users u ON u.user_id = t.user_id
      WHERE ${conditions.join(' AND ')}
      ORDER BY t.posted_at DESC, t.transfer_id DESC LIMIT ${limit}`,
    values,
  );
  const transactions = result.rows.slice(0, query.pageSize);
  const last = transactions.at(-1);
  return { transactions, next: result.rows.length > query.pageSize && last ? { postedAt: last.postedAt, id: last.transferId } : null };
}
