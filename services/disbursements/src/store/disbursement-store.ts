import { outboxInsertWhenRowsIn } from '@pwa/bus';
import type { EventEnvelope } from '@pwa/contracts';
import type { Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { Disbursement, DisbursementReversalRecord, Settlement } from '../domain/disbursement';
import type { DisbursementState } from '../domain/disbursement-state';

export interface DisbursementRow {
  disbursement_id: string;
  reference_id: string;
  partner_id: string;
  external_id: string;
  quote_id: string | null;
  bulk_id: string | null;
  bulk_index: number | null;
  phone: string;
  recipient_name: string;
  currency: Currency;
  amount_minor: string;
  fee_minor: string;
  note: string | null;
  status: DisbursementState;
  transaction_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  created_at: Date;
  completed_at: Date | null;
  reversal_transaction_id: string | null;
  reversed_at: Date | null;
}

/** Every column a Disbursement is read from (the list store selects the same). */
export const disbursementColumns =
  'disbursement_id, reference_id, partner_id, external_id, quote_id, bulk_id, bulk_index, phone, recipient_name, currency, amount_minor, fee_minor, note, status, transaction_id, failure_code, failure_message, created_at, completed_at, reversal_transaction_id, reversed_at';

export function toDisbursement(row: DisbursementRow): Disbursement {
  return {
    disbursementId: row.disbursement_id,
    referenceId: row.reference_id,
    partnerId: row.partner_id,
    externalId: row.external_id,
    quoteId: row.quote_id,
    bulkId: row.bulk_id,
    bulkIndex: row.bulk_index,
    phone: row.phone,
    recipientName: row.recipient_name,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    feeMinor: minorFromDatabase(row.fee_minor),
    note: row.note,
    status: row.status,
    transactionId: row.transaction_id,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    ...(row.reversal_transaction_id === null || row.reversed_at === null ? {} : { reversal: { transactionId: row.reversal_transaction_id, reversedAt: row.reversed_at } }),
  };
}

export type NewDisbursement = Omit<Disbursement, 'status' | 'transactionId' | 'failureCode' | 'failureMessage' | 'createdAt' | 'completedAt' | 'bulkId' | 'bulkIndex' | 'reversal'>;

/**
 * Inserts the disbursement as processing, unless the partner's externalId is held by a processing
 * or completed one: the partial unique index decides, so concurrent calls cannot both get through.
 * Undefined when the externalId is taken.
 */
export async function insertProcessing(db: Queryable, disbursement: NewDisbursement): Promise<Disbursement | undefined> {
  const result = await db.query<DisbursementRow>(
    `INSERT INTO disbursements (disbursement_id, reference_id, partner_id, external_id, quote_id, phone, recipient_name, currency, amount_minor, fee_minor, note, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'processing')
     ON CONFLICT (partner_id, external_id) WHERE status IN ('processing', 'completed') DO NOTHING
     RETURNING ${disbursementColumns}`,
    [
      disbursement.disbursementId,
      disbursement.referenceId,
      disbursement.partnerId,
      disbursement.externalId,
      disbursement.quoteId,
      disbursement.phone,
      disbursement.recipientName,
      disbursement.currency,
      disbursement.amountMinor.toString(),
      disbursement.feeMinor.toString(),
      disbursement.note,
    ],
  );
  const row = result.rows[0];
  return row ? toDisbursement(row) : undefined;
}

/** The disbursement holding the partner's externalId (processing or completed), if any. */
export async function findHolderOfExternalId(db: Queryable, partnerId: string, externalId: string): Promise<Disbursement | undefined> {
  const result = await db.query<DisbursementRow>(
    `SELECT ${disbursementColumns} FROM disbursements WHERE partner_id = $1 AND external_id = $2 AND status IN ('processing', 'completed')`,
    [partnerId, externalId],
  );
  const row = result.rows[0];
  return row ? toDisbursement(row) : undefined;
}

export async function findByReferenceId(db: Queryable, referenceId: string): Promise<Disbursement | undefined> {
  const result = await db.query<DisbursementRow>(`SELECT ${disbursementColumns} FROM disbursements WHERE reference_id = $1`, [referenceId]);
  const row = result.rows[0];
  return row ? toDisbursement(row) : undefined;
}

export async function findById(db: Queryable, disbursementId: string): Promise<Disbursement | undefined> {
  const result = await db.query<DisbursementRow>(`SELECT ${disbursementColumns} FROM disbursements WHERE disbursement_id = $1`, [disbursementId]);
  const row = result.rows[0];
  return row ? toDisbursement(row) : undefined;
}

/**
 * Records the reversal of a completed disbursement and writes its event to the outbox, by one
 * statement: the event exists exactly when the row changed. A disbursement that is no longer
 * completed with this transaction, or already reversed, is left alone: false.
 */
export async function recordReversal(db: Queryable, disbursement: Pick<Disbursement, 'disbursementId' | 'transactionId'>, reversal: DisbursementReversalRecord, event: EventEnvelope): Promise<boolean> {
  const outboxInsert = outboxInsertWhenRowsIn('reversed', 5, event);
  const result = await db.query(
    `WITH reversed AS (
       UPDATE disbursements SET reversal_transaction_id = $3, reversed_at = $4
        WHERE disbursement_id = $1 AND transaction_id = $2 AND status = 'completed' AND reversal_transaction_id IS NULL
       RETURNING disbursement_id
     ), event AS (${outboxInsert.sql})
     SELECT disbursement_id FROM reversed`,
    [disbursement.disbursementId, disbursement.transactionId, reversal.transactionId, reversal.reversedAt, ...outboxInsert.values],
  );
  return result.rowCount === 1;
}

export type { Settlement };

/**
 * Moves a processing disbursement to its final state and writes its event to the outbox, by one
 * statement: the event is inserted only when the guarded update changed the row, so it exists if
 * and only if the state change commits, without a transaction of its own. The guard on processing
 * makes the first settlement win (a request and the sweep may race); undefined when it was already
 * settled, and then nothing was written.
 */
export async function settleWithEvent(db: Queryable, disbursementId: string, settlement: Settlement, event: EventEnvelope): Promise<Disbursement | undefined> {
  const completed = settlement.status === 'completed';
  const outboxInsert = outboxInsertWhenRowsIn('settled', 7, event);
  const result = await db.query<DisbursementRow>(
    `WITH settled AS (
       UPDATE disbursements
          SET status = $2, transaction_id = $3, completed_at = $4, failure_code = $5, failure_message = $6, settled_at = clock_timestamp()
        WHERE disbursement_id = $1 AND status = 'processing'
        RETURNING ${disbursementColumns}
     ), event AS (${outboxInsert.sql})
     SELECT ${disbursementColumns} FROM settled`,
    [
      disbursementId,
      settlement.status,
      completed ? settlement.transactionId : null,
      completed ? settlement.completedAt : null,
      completed ? null : settlement.failureCode,
      completed ? null : settlement.failureMessage,
      ...outboxInsert.values,
    ],
  );
  const row = result.rows[0];
  return row ? toDisbursement(row) : undefined;
}

/** Single disbursements still processing long after any request could be working on them (bulk items are the bulk processor's). */
export async function listStaleProcessing(db: Queryable, olderThanMs: number, limit: number): Promise<Disbursement[]> {
  const result = await db.query<DisbursementRow>(
    `SELECT ${disbursementColumns} FROM disbursements
      WHERE status = 'processing' AND bulk_id IS NULL AND created_at < clock_timestamp() - make_interval(secs => $1::double precision / 1000)
      ORDER BY created_at LIMIT $2`,
    [olderThanMs, limit],
  );
  return result.rows.map(toDisbursement);
}

/**
 * Disbursements still processing more than `graceSeconds` after creation (disbursements_processing_stale):
 * the settlement sweep should have settled them by then. The partial index on created_at of
 * processing rows (disbursements_processing_idx) answers it.
 */
export async function countProcessingStale(db: Queryable, graceSeconds: number): Promise<number> {
  const result = await db.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM disbursements
      WHERE status = 'processing' AND bulk_id IS NULL AND created_at < now() - make_interval(secs => $1)`,
    [graceSeconds],
  );
  return Number(result.rows[0]?.count ?? 0);
}
