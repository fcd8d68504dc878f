import type { PoolClient, Queryable } from '@pwa/db';
import { toTransferRecord, transferColumnList, type PostedTransferRecord, type TransferRecord, type TransferRow } from './transfer-store';

export interface BatchEntryToInsert {
  transferId: string;
  accountId: string;
  amountMinor: bigint;
}

/**
 * Claims every posted item's transfer id and writes every claimed item's entries in ONE statement,
 * whatever the batch's size (decision 0054): the transfers as a data-modifying CTE, the entries as
 * the statement's INSERT. The entries' statement-level trigger then runs once for the whole batch:
 * it checks every posting's zero sum, locks the accounts in ascending id (the fee revenue account
 * is the only one not already held) and moves each account's balance once, by the sum of the
 * batch's entries on it, so the partner's row is updated once per batch. Entries keep the items'
 * order (ORDER BY position), so the partner's statement lines record the running balance item by
 * item. An id another call claimed meanwhile (a cancellation, which takes no user lock) is skipped
 * with its entries; the answer is the set of ids this statement claimed.
 */
export async function claimTransfersWithEntries(
  client: PoolClient,
  transfers: readonly PostedTransferRecord[],
  entries: readonly BatchEntryToInsert[],
): Promise<Set<string>> {
  if (transfers.length === 0) return new Set();
  const column = <T>(pick: (transfer: PostedTransferRecord) => T): T[] => transfers.map(pick);
  const result = await client.query<{ transfer_id: string }>(
    `WITH item AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::uuid[], $6::text[], $7::bigint[], $8::bigint[], $9::text[], $10::timestamptz[], $11::text[], $12::text[])
         WITH ORDINALITY AS i (transfer_id, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at, reference_id, external_id, position)
     ), claimed AS (
       INSERT INTO transfers (transfer_id, state, kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at, reference_id, external_id)
       SELECT transfer_id, 'posted', kind, transaction_id, user_id, partner_id, currency, amount_minor, fee_minor, reference, posted_at, reference_id, external_id
         FROM item ORDER BY position
       ON CONFLICT (transfer_id) DO NOTHING
       RETURNING transfer_id, currency
     )
     INSERT INTO entries (transfer_id, account_id, currency, amount_minor)
     SELECT claimed.transfer_id, leg.account_id, claimed.currency, leg.amount_minor
       FROM unnest($13::uuid[], $14::bigint[], $15::bigint[]) WITH ORDINALITY AS leg (transfer_id, account_id, amount_minor, position)
       JOIN claimed ON claimed.transfer_id = leg.transfer_id
      ORDER BY leg.position
     RETURNING transfer_id::text`,
    [
      column((transfer) => transfer.transferId),
      column((transfer) => transfer.kind),
      column((transfer) => transfer.transactionId),
      column((transfer) => transfer.userId),
      column((transfer) => transfer.partnerId),
      column((transfer) => transfer.currency),
      column((transfer) => transfer.amountMinor.toString()),
      column((transfer) => transfer.feeMinor.toString()),
      column((transfer) => transfer.reference),
      column((transfer) => transfer.postedAt),
      column((transfer) => transfer.referenceId ?? null),
      column((transfer) => transfer.externalId ?? null),
      entries.map((entry) => entry.transferId),
      entries.map((entry) => entry.accountId),
      entries.map((entry) => entry.amountMinor.toString()),
    ],
  );
  return new Set(result.rows.map((row) => row.transfer_id));
}

/** The records of these transfer ids (those that exist), in one statement. */
export async function findTransfers(db: Queryable, transferIds: readonly string[]): Promise<Map<string, TransferRecord>> {
  if (transferIds.length === 0) return new Map();
  const result = await db.query<TransferRow>(`SELECT ${transferColumnList.join(', ')} FROM transfers WHERE transfer_id = ANY ($1::uuid[])`, [[...transferIds]]);
  return new Map(result.rows.map((row) => [row.transfer_id, toTransferRecord(row)]));
}
