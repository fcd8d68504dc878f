import type { PoolClient, Queryable } from '@pwa/db';
import type { RefundStatus } from '@pwa/contracts';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { Refund } from '../domain/refund';
import { nextPostingAtSql } from './collection-store';

export interface RefundRow {
  id: string;
  reference_id: string;
  collection_id: string;
  collection_reference_id: string;
  collection_refunded_minor: string;
  partner_id: string;
  external_id: string;
  phone: string;
  currency: Currency;
  amount_minor: string;
  reason: string | null;
  status: RefundStatus;
  created_at: Date;
  resolved_at: Date | null;
  transaction_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  posting_attempts: number;
}

export function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    referenceId: row.reference_id,
    collectionId: row.collection_id,
    collectionReferenceId: row.collection_reference_id,
    collectionRefundedMinor: minorFromDatabase(row.collection_refunded_minor),
    partnerId: row.partner_id,
    externalId: row.external_id,
    phone: row.phone,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    reason: row.reason,
    status: row.status,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    transactionId: row.transaction_id,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    postingAttempts: row.posting_attempts,
  };
}

/**
 * The refund's columns (alias r) with its collection's referenceId and refunded total (alias c).
 * Every read and every transition returns this shape, so an answer always names the collection's
 * refunded total as of that statement.
 */
export function refundColumns(r: string, c: string): string {
  return `${r}.id, ${r}.reference_id, ${r}.collection_id, ${c}.reference_id AS collection_reference_id,
    ${c}.refunded_minor::text AS collection_refunded_minor, ${r}.partner_id, ${r}.external_id, ${r}.phone, ${r}.currency,
    ${r}.amount_minor::text AS amount_minor, ${r}.reason, ${r}.status, ${r}.created_at, ${r}.resolved_at,
    ${r}.transaction_id, ${r}.failure_code, ${r}.failure_message, ${r}.posting_attempts`;
}

export interface NewRefund {
  id: string;
  referenceId: string;
  collectionId: string;
  partnerId: string;
  externalId: string;
  amountMinor: bigint;
  reason: string | null;
  /** When the recovery worker may first re-drive the posting (after the requester's own attempt). */
  recoveryDelayMs: number;
}

/** Postgres' unique_violation on the refunds' externalId index; the caller turns it into PKC_6001. */
export function isRefundExternalIdConflict(error: unknown): boolean {
  const fields = error as { code?: unknown; constraint?: unknown } | null;
  return fields?.code === '23505' && fields.constraint === 'collection_refunds_external_id_in_use';
}

/**
 * Reserves the amount on the collection and records the refund as processing, in ONE statement:
 * the conditional UPDATE (completed, and the refunds stay within the amount) is what keeps any
 * number of concurrent refunds within the collected amount: each waits for the row, then re-checks
 * the condition on the row it finds. No row: nothing was reserved (the caller reads why). A taken
 * externalId fails the whole statement (unique violation), reservation included.
 */
export async function reserveRefund(db: Queryable, refund: NewRefund): Promise<Refund | undefined> {
  const result = await db.query<RefundRow>(
    `WITH reserved AS (
       UPDATE collection_requests
          SET refunded_minor = refunded_minor + $6, updated_at = now()
        WHERE id = $3 AND partner_id = $4 AND status = 'completed' AND refunded_minor + $6 <= amount_minor
       RETURNING id, reference_id, refunded_minor, phone, currency
     ), inserted AS (
       INSERT INTO collection_refunds (id, reference_id, collection_id, partner_id, external_id, phone, currency, amount_minor,
                                       reason, status, posting_attempts, next_posting_at)
       SELECT $1, $2, reserved.id, $4, $5, reserved.phone, reserved.currency, $6, $7, 'processing', 1,
              now() + make_interval(secs => $8::double precision / 1000)
         FROM reserved
       RETURNING *
     )
     SELECT ${refundColumns('r', 'c')} FROM inserted r JOIN reserved c ON c.id = r.collection_id`,
    [refund.id, refund.referenceId, refund.collectionId, refund.partnerId, refund.externalId, refund.amountMinor.toString(), refund.reason, refund.recoveryDelayMs],
  );
  return result.rows[0] && toRefund(result.rows[0]);
}

export const fromRefunds = 'FROM collection_refunds r JOIN collection_requests c ON c.id = r.collection_id';

export async function findRefundByReferenceId(db: Queryable, referenceId: string): Promise<Refund | undefined> {
  const result = await db.query<RefundRow>(`SELECT ${refundColumns('r', 'c')} ${fromRefunds} WHERE r.reference_id = $1`, [referenceId]);
  return result.rows[0] && toRefund(result.rows[0]);
}

export async function findRefundById(db: Queryable, id: string): Promise<Refund | undefined> {
  const result = await db.query<RefundRow>(`SELECT ${refundColumns('r', 'c')} ${fromRefunds} WHERE r.id = $1`, [id]);
  return result.rows[0] && toRefund(result.rows[0]);
}

/** The refund holding the partner's externalId (in progress or completed), if any. */
export async function findRefundHoldingExternalId(db: Queryable, partnerId: string, externalId: string): Promise<Refund | undefined> {
  const result = await db.query<RefundRow>(
    `SELECT ${refundColumns('r', 'c')} ${fromRefunds}
      WHERE r.partner_id = $1 AND r.external_id = $2 AND r.status IN ('processing', 'completed')`,
    [partnerId, externalId],
  );
  return result.rows[0] && toRefund(result.rows[0]);
}

/** processing → completed with the wallet's transaction id; the posting's time is the completion time. */
export async function markRefundCompleted(client: PoolClient, id: string, transactionId: string, postedAt: Date): Promise<Refund | undefined> {
  const result = await client.query<RefundRow>(
    `WITH done AS (
       UPDATE collection_refunds
          SET status = 'completed', transaction_id = $2, resolved_at = $3, updated_at = now(), next_posting_at = NULL
        WHERE id = $1 AND status = 'processing'
       RETURNING *
     )
     SELECT ${refundColumns('r', 'c')} FROM done r JOIN collection_requests c ON c.id = r.collection_id`,
    [id, transactionId, postedAt],
  );
  return result.rows[0] && toRefund(result.rows[0]);
}

/**
 * processing → failed, and the collection's reservation given back, in one statement: nothing was
 * posted, so the amount is refundable again (and the externalId free).
 */
export async function markRefundFailed(client: PoolClient, id: string, failure: { code: string; message: string }): Promise<Refund | undefined> {
  const result = await client.query<RefundRow>(
    `WITH failed AS (
       UPDATE collection_refunds
          SET status = 'failed', failure_code = $2, failure_message = $3, resolved_at = now(), updated_at = now(), next_posting_at = NULL
        WHERE id = $1 AND status = 'processing'
       RETURNING *
     ), released AS (
       UPDATE collection_requests c
          SET refunded_minor = c.refunded_minor - failed.amount_minor, updated_at = now()
         FROM failed
        WHERE c.id = failed.collection_id
       RETURNING c.id, c.reference_id, c.refunded_minor
     )
     SELECT ${refundColumns('r', 'c')} FROM failed r JOIN released c ON c.id = r.collection_id`,
    [id, failure.code, failure.message],
  );
  return result.rows[0] && toRefund(result.rows[0]);
}

/**
 * Claims processing refunds whose re-drive is due, for one worker: the lease (next_posting_at moved
 * ahead by the backoff) keeps other replicas off them while this one calls the wallet.
 */
export async function claimDueRefundPostings(db: Queryable, batchSize: number, delayMs: number, delayMsMax: number): Promise<Refund[]> {
  const result = await db.query<RefundRow>(
    `WITH due AS (
       SELECT id FROM collection_refunds
        WHERE status = 'processing' AND next_posting_at <= now()
        ORDER BY next_posting_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE collection_refunds r
          SET posting_attempts = r.posting_attempts + 1, updated_at = now(),
              next_posting_at = ${nextPostingAtSql('r.posting_attempts', '$2', '$3')}
         FROM due WHERE r.id = due.id
       RETURNING r.*
     )
     SELECT ${refundColumns('r', 'c')} FROM claimed r JOIN collection_requests c ON c.id = r.collection_id`,
    [batchSize, delayMs, delayMsMax],
  );
  return result.rows.map(toRefund);
}
