import { minorFromDatabase, type Currency } from '@pwa/money';
import type { PoolClient, Queryable } from '@pwa/db';
import type { PostingKind } from '../domain/posting';

/** A transfer id's fate: posted with its money movement, or cancelled (a tombstone). */
export type TransferRecord =
  | {
      state: 'posted';
      transferId: string;
      kind: PostingKind;
      transactionId: string;
      userId: string | null;
      partnerId: string | null;
      currency: Currency;
      amountMinor: bigint;
      feeMinor: bigint;
      reference: string | null;
      postedAt: Date;
      /** The public PKC-…/PKD-… id and the partner's externalId, when the caller sent them (kept for the statement; not read back here). */
      referenceId?: string | null;
      externalId?: string | null;
    }
  | { state: 'cancelled'; transferId: string; cancelledAt: Date };

export type PostedTransferRecord = Extract<TransferRecord, { state: 'posted' }>;

export interface TransferRow {
  transfer_id: string;
  state: 'posted' | 'cancelled';
  kind: PostingKind | null;
  transaction_id: string | null;
  user_id: string | null;
  partner_id: string | null;
  currency: Currency | null;
  amount_minor: string | null;
  fee_minor: string | null;
  reference: string | null;
  posted_at: Date | null;
  cancelled_at: Date | null;
}

export function toTransferRecord(row: TransferRow): TransferRecord {
  if (row.state === 'cancelled') {
    if (row.cancelled_at === null) throw new Error(`transfer ${row.transfer_id} is cancelled without a time`);
    return { state: 'cancelled', transferId: row.transfer_id, cancelledAt: row.cancelled_at };
  }
  if (row.kind === null || row.transaction_id === null || row.currency === null || row.amount_minor === null || row.fee_minor === null || row.posted_at === null) {
    throw new Error(`transfer ${row.transfer_id} is posted but incomplete`);
  }
  return {
    state: 'posted',
    transferId: row.transfer_id,
    kind: row.kind,
    transactionId: row.transaction_id,
    userId: row.user_id,
    partnerId: row.partner_id,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    feeMinor: minorFromDatabase(row.fee_minor),
    reference: row.reference,
    postedAt: row.posted_at,
  };
}

export const transferColumnList = [
  'transfer_id',
  'state',
  'kind',
  'transaction_id',
  'user_id',
  'partner_id',
  'currency',
  'amount_minor',
  'fee_minor',
  'reference',
  'posted_at',
  'cancelled_at',
] as const satisfies readonly (keyof TransferRow)[];

const transferColumns = transferColumnList.join(', ');

export async function findTransfer(db: Queryable, transferId: string): Promise<TransferRecord | undefined> {
  const result = await db.query<TransferRow>(`SELECT ${transferColumns} FROM transfers WHERE transfer_id = $1`, [transferId]);
  const row = result.rows[0];
  return row ? toTransferRecord(row) : undefined;
}

/** $1…$12 of the statements that insert a posted transfer, in their column order. */
function postedTransferValues(transfer: PostedTransferRecord): unknown[] {
  return [
    transfer.transferId,
    transfer.kind,
    transfer.transactionId,
    transfer.userId,
    transfer.partnerId,
    transfer.currency,
    transfer.amountMinor.toString(),
    transfer.feeMinor.toString(),
    transfer.reference,
    transfer.postedAt,
    transfer.referenceId ?? null,
    transfer.externalId ?? null,
  ];
}

/**
 * Claims the transfer id for this posting. The id is the primary key, so of a posting and a
 * cancellation (or two postings) racing for it exactly one inserts; the other finds no row
 * returned, and, once the winner has committed, reads the winner's record. False when taken.
 */
export async function claimTransferForPosting(client: PoolClient, transfer: PostedTransferRecord): Promise<boolean> {
  const result = await client.query(
    `INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at, reference_id, external_id)
     VALUES ($1, 'posted', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (transfer_id) DO NOTHING`,
    postedTransferValues(transfer),
  );
  return result.rowCount === 1;
}

/** Claims the transfer id with a tombstone so that no later posting can use it; false when taken. */
export async function claimTransferForCancellation(db: Queryable, transferId: string): Promise<boolean> {
  const result = await db.query(
    `INSERT INTO transfers (transfer_id, state, cancelled_at) VALUES ($1, 'cancelled', clock_timestamp()) ON CONFLICT (transfer_id) DO NOTHING`,
    [transferId],
  );
  return result.rowCount === 1;
}

export interface EntryToInsert {
  accountId: string;
  amountMinor: bigint;
}

/** Inserts a posting's entries in one statement; its statement trigger checks the sum and moves the balances (decision 0037). */
export async function insertEntries(client: PoolClient, transferId: string, currency: Currency, entries: readonly EntryToInsert[]): Promise<void> {
  await client.query(
    `INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
     SELECT $1, account_id, $2, amount_minor
       FROM unnest($3::bigint[], $4::bigint[]) WITH ORDINALITY AS leg (account_id, amount_minor, position)
      ORDER BY position`,
    [transferId, currency, entries.map((entry) => entry.accountId), entries.map((entry) => entry.amountMinor.toString())],
  );
}

/**
 * claimTransferForPosting and insertEntries in one statement (one round trip): the entries are
 * inserted only when the claim inserted the transfer row. False when the id was taken, and then
 * nothing was written. Foreign keys and the entry trigger run as for two statements: the entries'
 * statement trigger (sum check, balances) at the end of the statement, the has-entries check at commit.
 */
export async function claimTransferWithEntries(
  client: PoolClient,
  transfer: PostedTransferRecord,
  entries: readonly EntryToInsert[],
): Promise<boolean> {
  if (entries.length === 0) throw new Error(`transfer ${transfer.transferId} has no entries to post`);
  const result = await client.query(
    `WITH claimed AS (
       INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at, reference_id, external_id)
       VALUES ($1, 'posted', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
       ON CONFLICT (transfer_id) DO NOTHING
       RETURNING transfer_id, currency
     )
     INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
     SELECT claimed.transfer_id, leg.account_id, claimed.currency, leg.amount_minor
       FROM claimed, unnest($13::bigint[], $14::bigint[]) WITH ORDINALITY AS leg (account_id, amount_minor, position)
      ORDER BY leg.position`,
    [...postedTransferValues(transfer), entries.map((entry) => entry.accountId), entries.map((entry) => entry.amountMinor.toString())],
  );
  return (result.rowCount ?? 0) > 0;
}

/** The time of the database's clock, the one clock every replica shares for postings and limit windows. */
export async function databaseNow(db: Queryable): Promise<Date> {
  const result = await db.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  const row = result.rows[0];
  if (!row) throw new Error('the database returned no time');
  return row.now;
}
