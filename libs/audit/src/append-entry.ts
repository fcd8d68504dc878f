import { withTransaction, type Pool, type Queryable } from '@pwa/db';
import type { AppendedAuditEntry, AuditEntryInput } from './audit-entry';
import { occurredAtFormat } from './audit-rows';
import { entryHash, genesisHash } from './entry-hash';
import { validateEntry } from './entry-validation';

/**
 * The first key of the two-key advisory lock that serialises appends; the second is the OID of
 * the audit_log table the search path names, so each schema's log has a lock of its own.
 */
const auditLockClass = 0x41554454; // "AUDT"

/**
 * Appends one entry in a transaction of its own: for an action whose own transaction has ended, and
 * for a refusal, whose entry must stay although the action's work was rolled back.
 */
export async function appendAuditEntry(pool: Pool, input: AuditEntryInput): Promise<AppendedAuditEntry> {
  const entry = validateEntry(input);
  return withTransaction(pool, (client) => appendValidatedEntry(client, entry));
}

/**
 * Appends one entry inside the caller's open transaction, so the entry commits or rolls back with
 * the change it records. The transaction must be READ COMMITTED (the default, and withTransaction's
 * read_write). The append lock is held until that transaction ends: keep it short.
 */
export async function appendAuditEntryInTransaction(transaction: Queryable, input: AuditEntryInput): Promise<AppendedAuditEntry> {
  return appendValidatedEntry(transaction, validateEntry(input));
}

/**
 * Under the lock, the last entry is the one to follow: its sequence plus one, its hash as the
 * previous hash, and the database's clock read after the lock as the time, so times never go
 * backwards along the chain whatever the clocks of the service's replicas say.
 */
async function appendValidatedEntry(transaction: Queryable, entry: ReturnType<typeof validateEntry>): Promise<AppendedAuditEntry> {
  const locked = await transaction.query<{ isolation: string }>(
    `SELECT pg_advisory_xact_lock($1, 'audit_log'::regclass::oid::integer), current_setting('transaction_isolation') AS isolation`,
    [auditLockClass],
  );
  // Under REPEATABLE READ or SERIALIZABLE the snapshot predates the lock, so the last entry read
  // could be stale; the database would then refuse the insert. Say why instead.
  if (locked.rows[0]?.isolation !== 'read committed') throw new Error('appendAuditEntryInTransaction needs a READ COMMITTED transaction');
  const head = await transaction.query<{ sequence: string | null; hash: string | null; occurred_at: string }>(
    `SELECT last.sequence::text AS sequence, encode(last.hash, 'hex') AS hash,
            to_char(clock_timestamp() AT TIME ZONE 'UTC', ${occurredAtFormat}) AS occurred_at
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (SELECT sequence, hash FROM audit_log ORDER BY sequence DESC LIMIT 1) AS last ON true`,
  );
  const row = head.rows[0];
  if (row === undefined) throw new Error('audit_log head query answered no row');
  const sequence = row.sequence === null ? 1 : Number(row.sequence) + 1;
  const previousHash = row.hash ?? genesisHash;
  const hash = entryHash({ ...entry, sequence, occurredAt: row.occurred_at, previousHash });
  await transaction.query(
    `INSERT INTO audit_log (sequence, entry_id, occurred_at, actor, action, target, partner_id, before, after,
                            outcome, reason, address, user_agent, request_id, previous_hash, hash)
     VALUES ($1, $2, $3::timestamptz, $4::jsonb, $5, $6::jsonb, $7, $8::jsonb, $9::jsonb,
             $10, $11, $12, $13, $14, decode($15, 'hex'), decode($16, 'hex'))`,
    [
      sequence,
      entry.entryId,
      row.occurred_at,
      JSON.stringify(entry.actor),
      entry.action,
      JSON.stringify(entry.target),
      entry.partnerId,
      entry.before === null ? null : JSON.stringify(entry.before),
      entry.after === null ? null : JSON.stringify(entry.after),
      entry.outcome,
      entry.reason,
      entry.address,
      entry.userAgent,
      entry.requestId,
      previousHash,
      hash,
    ],
  );
  return { sequence, entryId: entry.entryId, occurredAt: row.occurred_at, hash };
}
