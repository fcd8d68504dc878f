import type { PoolClient, Queryable } from '@pwa/db';
import { minorFromDatabase, type Currency } from '@pwa/money';
import type { Collection } from '../domain/collection';
import type { CollectionActor, CollectionStatus, RefusedActionFacts } from '../domain/collection-state-machine';

export interface CollectionRow {
  id: string;
  reference_id: string;
  partner_id: string;
  external_id: string;
  quote_id: string;
  phone: string;
  recipient_name: string;
  currency: Currency;
  amount_minor: string;
  fee_minor: string;
  note: string | null;
  status: CollectionStatus;
  expires_at: Date;
  created_at: Date;
  approved_at: Date | null;
  resolved_at: Date | null;
  transaction_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  posting_attempts: number;
  refunded_minor: string;
}

export function toCollection(row: CollectionRow): Collection {
  return {
    id: row.id,
    referenceId: row.reference_id,
    partnerId: row.partner_id,
    externalId: row.external_id,
    quoteId: row.quote_id,
    phone: row.phone,
    recipientName: row.recipient_name,
    currency: row.currency,
    amountMinor: minorFromDatabase(row.amount_minor),
    feeMinor: minorFromDatabase(row.fee_minor),
    note: row.note,
    status: row.status,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    approvedAt: row.approved_at,
    resolvedAt: row.resolved_at,
    transactionId: row.transaction_id,
    failureCode: row.failure_code,
    failureMessage: row.failure_message,
    postingAttempts: row.posting_attempts,
    refundedMinor: minorFromDatabase(row.refunded_minor),
  };
}

/** The selected columns, qualified by a table alias where a statement joins (UPDATE ... FROM). */
export function columnsOf(alias = ''): string {
  return `${alias}id, ${alias}reference_id, ${alias}partner_id, ${alias}external_id, ${alias}quote_id, ${alias}phone,
    ${alias}recipient_name, ${alias}currency, ${alias}amount_minor::text AS amount_minor, ${alias}fee_minor::text AS fee_minor,
    ${alias}note, ${alias}status, ${alias}expires_at, ${alias}created_at, ${alias}approved_at, ${alias}resolved_at,
    ${alias}transaction_id, ${alias}failure_code, ${alias}failure_message, ${alias}posting_attempts,
    ${alias}refunded_minor::text AS refunded_minor`;
}
const columns = columnsOf();

export interface NewCollection {
  id: string;
  referenceId: string;
  partnerId: string;
  externalId: string;
  quoteId: string;
  phone: string;
  recipientName: string;
  currency: Currency;
  amountMinor: bigint;
  feeMinor: bigint;
  note: string | null;
  approvalWindowSeconds: number;
}

/** Postgres' unique_violation on the externalId index; the caller turns it into PKC_6001. */
export function isExternalIdConflict(error: unknown): boolean {
  const fields = error as { code?: unknown; constraint?: unknown } | null;
  return fields?.code === '23505' && fields.constraint === 'collection_requests_external_id_in_use';
}

/** Inserts the collection in pending_approval; expiresAt is the database's now() plus the window. */
export async function insertCollection(client: PoolClient, collection: NewCollection): Promise<Collection> {
  const result = await client.query<CollectionRow>(
    `INSERT INTO collection_requests (id, reference_id, partner_id, external_id, quote_id, phone, recipient_name,
       currency, amount_minor, fee_minor, note, status, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending_approval', now() + make_interval(secs => $12))
     RETURNING ${columns}`,
    [
      collection.id,
      collection.referenceId,
      collection.partnerId,
      collection.externalId,
      collection.quoteId,
      collection.phone,
      collection.recipientName,
      collection.currency,
      collection.amountMinor.toString(),
      collection.feeMinor.toString(),
      collection.note,
      collection.approvalWindowSeconds,
    ],
  );
  return toCollection(requireRow(result.rows[0]));
}

export async function findByReferenceId(db: Queryable, referenceId: string): Promise<Collection | undefined> {
  const result = await db.query<CollectionRow>(`SELECT ${columns} FROM collection_requests WHERE reference_id = $1`, [referenceId]);
  return result.rows[0] && toCollection(result.rows[0]);
}

export async function findById(db: Queryable, id: string): Promise<Collection | undefined> {
  const result = await db.query<CollectionRow>(`SELECT ${columns} FROM collection_requests WHERE id = $1`, [id]);
  return result.rows[0] && toCollection(result.rows[0]);
}

/** The collection holding the partner's externalId (in progress or completed), if any. */
export async function findHolderOfExternalId(db: Queryable, partnerId: string, externalId: string): Promise<Collection | undefined> {
  const result = await db.query<CollectionRow>(
    `SELECT ${columns} FROM collection_requests
      WHERE partner_id = $1 AND external_id = $2 AND status IN ('pending_approval', 'processing', 'completed')`,
    [partnerId, externalId],
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

export async function listPendingForPhone(db: Queryable, phone: string, limit: number): Promise<Collection[]> {
  const result = await db.query<CollectionRow>(
    `SELECT ${columns} FROM collection_requests
      WHERE phone = $1 AND status = 'pending_approval' AND expires_at > now()
      ORDER BY created_at LIMIT $2`,
    [phone, limit],
  );
  return result.rows.map(toCollection);
}

/**
 * The actor's part of an action's WHERE: the partner that owns the collection, or the user's phone
 * when the app names one (none for the system's own actions: the sweeper, the sandbox's test phones).
 * The placeholder is the next one of `values`, which it extends.
 */
function actorCondition(actor: CollectionActor | undefined, values: unknown[]): string {
  if (actor === undefined || (actor.kind === 'user' && actor.phone === undefined)) return '';
  values.push(actor.kind === 'partner' ? actor.partnerId : actor.phone);
  return actor.kind === 'partner' ? ` AND partner_id = $${values.length}` : ` AND phone = $${values.length}`;
}

/**
 * pending_approval → processing, only within the window and for its actor. This one statement is
 * what gives approve-vs-decline, approve-vs-cancel and approve-vs-expiry exactly one winner: a
 * concurrent update makes it wait and then re-check the row it finds. The first posting attempt
 * counts now; the recovery worker leaves the row alone until `recoveryDelayMs` has passed.
 */
export async function markApproved(db: Queryable, referenceId: string, recoveryDelayMs: number, actor?: CollectionActor): Promise<Collection | undefined> {
  const values: unknown[] = [referenceId, recoveryDelayMs];
  const result = await db.query<CollectionRow>(
    `UPDATE collection_requests
        SET status = 'processing', approved_at = now(), updated_at = now(), posting_attempts = 1,
            next_posting_at = now() + make_interval(secs => $2::double precision / 1000)
      WHERE reference_id = $1 AND status = 'pending_approval' AND expires_at > now()${actorCondition(actor, values)}
      RETURNING ${columns}`,
    values,
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/** pending_approval → declined, only within the window and for its actor. */
export async function markDeclined(client: PoolClient, referenceId: string, actor: CollectionActor): Promise<Collection | undefined> {
  const values: unknown[] = [referenceId];
  const result = await client.query<CollectionRow>(
    `UPDATE collection_requests SET status = 'declined', resolved_at = now(), updated_at = now()
      WHERE reference_id = $1 AND status = 'pending_approval' AND expires_at > now()${actorCondition(actor, values)}
      RETURNING ${columns}`,
    values,
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/**
 * pending_approval → cancelled by the partner that owns it, only within the window: past it the
 * collection is expired, whatever the sweeper has reached. Against an approval the row lock decides.
 */
export async function markCancelled(client: PoolClient, referenceId: string, partnerId: string): Promise<Collection | undefined> {
  const values: unknown[] = [referenceId];
  const result = await client.query<CollectionRow>(
    `UPDATE collection_requests SET status = 'cancelled', resolved_at = now(), updated_at = now()
      WHERE reference_id = $1 AND status = 'pending_approval' AND expires_at > now()${actorCondition({ kind: 'partner', partnerId }, values)}
      RETURNING ${columns}`,
    values,
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/**
 * pending_approval → expired for one collection. `evenWithinWindow` is the sandbox's simulated
 * expiry (expiresAt is then moved to now) by its actor; otherwise only a collection past its
 * window expires (the expiry on touch, for anyone).
 */
export async function markExpired(client: PoolClient, referenceId: string, evenWithinWindow: boolean, actor?: CollectionActor): Promise<Collection | undefined> {
  const values: unknown[] = [referenceId, evenWithinWindow];
  const result = await client.query<CollectionRow>(
    `UPDATE collection_requests
        SET status = 'expired', resolved_at = now(), updated_at = now(), expires_at = least(expires_at, now())
      WHERE reference_id = $1 AND status = 'pending_approval' AND ($2 OR expires_at <= now())${actorCondition(actor, values)}
      RETURNING ${columns}`,
    values,
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/**
 * The one read after an action changed nothing: what the diagnosis needs of the row, and the
 * database's now() from the same statement (the clock the UPDATE's window was judged by).
 */
export async function findRefusalFacts(db: Queryable, referenceId: string): Promise<RefusedActionFacts> {
  const result = await db.query<{ now: Date; status: CollectionStatus | null; expires_at: Date | null; partner_id: string | null; phone: string | null }>(
    `SELECT now() AS now, c.status, c.expires_at, c.partner_id, c.phone
       FROM (SELECT 1) AS one LEFT JOIN collection_requests c ON c.reference_id = $1`,
    [referenceId],
  );
  const row = result.rows[0];
  if (row === undefined) throw new Error('the statement returned no row');
  const { status, expires_at: expiresAt, partner_id: partnerId, phone } = row;
  if (status === null || expiresAt === null || partnerId === null || phone === null) return { now: row.now, collection: undefined };
  return { now: row.now, collection: { status, expiresAt, partnerId, phone } };
}

/**
 * One batch of the sweeper: pending collections past their window, locked with SKIP LOCKED so
 * several replicas sweep disjoint rows and never wait for each other, then expired.
 */
export async function expireDueBatch(client: PoolClient, batchSize: number): Promise<Collection[]> {
  const result = await client.query<CollectionRow>(
    `WITH due AS (
       SELECT id FROM collection_requests
        WHERE status = 'pending_approval' AND expires_at <= now()
        ORDER BY expires_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
     UPDATE collection_requests c SET status = 'expired', resolved_at = now(), updated_at = now()
       FROM due WHERE c.id = due.id AND c.status = 'pending_approval'
     RETURNING ${columnsOf('c.')}`,
    [batchSize],
  );
  return result.rows.map(toCollection);
}

/** processing → completed with the wallet's transaction id; the posting's time is the completion time. */
export async function markCompleted(client: PoolClient, id: string, transactionId: string, postedAt: Date): Promise<Collection | undefined> {
  const result = await client.query<CollectionRow>(
    `UPDATE collection_requests
        SET status = 'completed', transaction_id = $2, resolved_at = $3, updated_at = now(), next_posting_at = NULL
      WHERE id = $1 AND status = 'processing'
      RETURNING ${columns}`,
    [id, transactionId, postedAt],
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/** processing → failed with the reason's code and partner message; nothing was posted. */
export async function markFailed(client: PoolClient, id: string, failure: { code: string; message: string }): Promise<Collection | undefined> {
  const result = await client.query<CollectionRow>(
    `UPDATE collection_requests
        SET status = 'failed', failure_code = $2, failure_message = $3, resolved_at = now(), updated_at = now(), next_posting_at = NULL
      WHERE id = $1 AND status = 'processing'
      RETURNING ${columns}`,
    [id, failure.code, failure.message],
  );
  return result.rows[0] && toCollection(result.rows[0]);
}

/**
 * Claims processing collections whose re-drive is due, for one worker: the lease (next_posting_at
 * moved ahead by the backoff) keeps other replicas off them while this one calls the wallet.
 */
export async function claimDuePostings(db: Queryable, batchSize: number, delayMs: number, delayMsMax: number): Promise<Collection[]> {
  const result = await db.query<CollectionRow>(
    `WITH due AS (
       SELECT id FROM collection_requests
        WHERE status = 'processing' AND next_posting_at <= now()
        ORDER BY next_posting_at
        LIMIT $1
        FOR UPDATE SKIP LOCKED)
     UPDATE collection_requests c
        SET posting_attempts = c.posting_attempts + 1, updated_at = now(),
            next_posting_at = ${nextPostingAtSql('c.posting_attempts', '$2', '$3')}
       FROM due WHERE c.id = due.id
     RETURNING ${columnsOf('c.')}`,
    [batchSize, delayMs, delayMsMax],
  );
  return result.rows.map(toCollection);
}

/** Pending collections of the given phones created at least `delayMs` ago (sandbox auto-resolution). */
export async function findPendingOfPhonesOlderThan(db: Queryable, phones: readonly string[], delayMs: number, limit: number): Promise<Collection[]> {
  const result = await db.query<CollectionRow>(
    `SELECT ${columns} FROM collection_requests
      WHERE status = 'pending_approval' AND phone = ANY($1)
        AND created_at <= now() - make_interval(secs => $2::double precision / 1000)
      ORDER BY created_at LIMIT $3`,
    [phones, delayMs, limit],
  );
  return result.rows.map(toCollection);
}

/**
 * When a claimed posting may be re-driven next: the first delay doubled per attempt made, at most
 * the longest delay (both in ms, as placeholders). The approvals' and the refunds' recovery share it.
 */
export function nextPostingAtSql(attemptsColumn: string, delayMs: string, delayMsMax: string): string {
  return `now() + make_interval(secs => least(${delayMs}::double precision * power(2, least(${attemptsColumn}, 30)), ${delayMsMax}::double precision) / 1000)`;
}

function requireRow<T>(row: T | undefined): T {
  if (row === undefined) throw new Error('the statement returned no row');
  return row;
}

/**
 * Pending collections more than `graceSeconds` past their window: the sweeper should have expired
 * them (collections_pending_overdue). The partial index on expires_at of pending rows answers it.
 */
export async function countPendingOverdue(db: Queryable, graceSeconds: number): Promise<number> {
  const result = await db.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM collection_requests
      WHERE status = 'pending_approval' AND expires_at < now() - make_interval(secs => $1)`,
    [graceSeconds],
  );
  return Number(result.rows[0]?.count ?? 0);
}

/**
 * Collections still processing (approved, posting in progress) more than `graceSeconds` after the
 * approval: the wallet has answered neither the posting nor the recovery worker's re-drives
 * (collections_processing_stale). The partial index of processing rows bounds the scan to them.
 */
export async function countProcessingStale(db: Queryable, graceSeconds: number): Promise<number> {
  const result = await db.query<{ count: string }>(
    `SELECT count(*)::text AS count FROM collection_requests
      WHERE status = 'processing' AND approved_at < now() - make_interval(secs => $1)`,
    [graceSeconds],
  );
  return Number(result.rows[0]?.count ?? 0);
}
