import type { Pool } from '@pwa/db';
import { auditRowColumns, hashedContentOf, type AuditRow } from './audit-rows';
import { entryHash, genesisHash } from './entry-hash';

export type AuditChainProblem = 'sequence_gap' | 'previous_hash_mismatch' | 'hash_mismatch' | 'anchor_mismatch' | 'entries_cut_from_end';

/** A head recorded earlier, outside the database (readAuditChainHead): the chain must still hold it. */
export interface AuditChainAnchor {
  sequence: number;
  hash: string;
}

export type AuditChainVerification =
  | { ok: true; entries: number }
  | {
      ok: false;
      /** The first place in the chain that is wrong: the first missing sequence for a gap, else the entry's own. */
      firstBrokenSequence: number;
      /** The entry found there (for a gap, the first entry after it); null when entries were cut from the end. */
      entryId: string | null;
      problem: AuditChainProblem;
      /** Entries checked and found sound before the break. */
      entries: number;
      /** One sentence for the operator, naming sequences only. */
      detail: string;
    };

export interface VerifyAuditChainOptions {
  /** Entries read per query. Default 500. */
  pageSize?: number;
  /**
   * A head recorded earlier where the database's owner cannot change it. The chain must reach it
   * and hold its hash there, which a rewrite of the whole chain from some entry onwards, or entries
   * cut from the end, cannot fake.
   */
  anchor?: AuditChainAnchor;
}

const defaultPageSize = 500;
const pageSizeMax = 5_000;

/**
 * Walks the chain from sequence 1 in pages of pageSize and answers whether every entry is where it
 * should be (the sequence after the previous one), links to the previous entry's hash, and hashes
 * to its stored hash. The walk stops at the last entry that existed when it began, which bounds it;
 * entries appended meanwhile are the next verification's.
 *
 * What a hash chain alone cannot show: entries cut from the end, or the chain rewritten with new
 * hashes from some entry onwards by someone who can write the table. Record the head
 * (readAuditChainHead) somewhere else from time to time and pass it as the anchor (decision 0060).
 */
export async function verifyAuditChain(pool: Pool, options: VerifyAuditChainOptions = {}): Promise<AuditChainVerification> {
  const pageSize = options.pageSize ?? defaultPageSize;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > pageSizeMax) throw new RangeError(`pageSize must be 1 to ${pageSizeMax}`);
  const anchor = options.anchor;
  const head = await readAuditChainHead(pool);
  if (anchor !== undefined && (head === null || head.sequence < anchor.sequence)) {
    const last = head?.sequence ?? 0;
    return { ok: false, firstBrokenSequence: last + 1, entryId: null, problem: 'entries_cut_from_end', entries: last, detail: `the chain ends at entry ${last}, before the anchored entry ${anchor.sequence}` };
  }
  if (head === null) return { ok: true, entries: 0 };
  let expectedSequence = 1;
  let previousHash = genesisHash;
  const pageCountMax = Math.ceil(head.sequence / pageSize) + 1;
  for (let page = 0; page < pageCountMax && expectedSequence <= head.sequence; page += 1) {
    const rows = await pool.query<AuditRow>(
      `SELECT ${auditRowColumns} FROM audit_log WHERE sequence >= $1 AND sequence <= $2 ORDER BY audit_log.sequence LIMIT $3`,
      [expectedSequence, head.sequence, pageSize],
    );
    if (rows.rows.length === 0) break;
    for (const row of rows.rows) {
      const broken = checkEntry(row, expectedSequence, previousHash);
      if (broken !== undefined) return { ok: false, ...broken, entries: expectedSequence - 1 };
      if (anchor !== undefined && anchor.sequence === expectedSequence && anchor.hash.toLowerCase() !== row.hash) {
        const detail = `entry ${expectedSequence} does not hold the anchored hash: the chain was rewritten from it or before it`;
        return { ok: false, firstBrokenSequence: expectedSequence, entryId: row.entry_id, problem: 'anchor_mismatch', entries: expectedSequence - 1, detail };
      }
      expectedSequence += 1;
      previousHash = row.hash;
    }
  }
  if (expectedSequence <= head.sequence) {
    // Only reachable if rows vanished during the walk: the head read at the start is gone.
    return { ok: false, firstBrokenSequence: expectedSequence, entryId: head.entryId, problem: 'sequence_gap', entries: expectedSequence - 1, detail: `entries from ${expectedSequence} to ${head.sequence} are missing` };
  }
  return { ok: true, entries: head.sequence };
}

type Break = { firstBrokenSequence: number; entryId: string; problem: AuditChainProblem; detail: string };

function checkEntry(row: AuditRow, expectedSequence: number, previousHash: string): Break | undefined {
  const sequence = Number(row.sequence);
  if (sequence !== expectedSequence) {
    const missing = sequence - 1 === expectedSequence ? `entry ${expectedSequence} is missing` : `entries ${expectedSequence} to ${sequence - 1} are missing`;
    return { firstBrokenSequence: expectedSequence, entryId: row.entry_id, problem: 'sequence_gap', detail: `${missing} before entry ${sequence}` };
  }
  if (row.previous_hash !== previousHash) {
    return { firstBrokenSequence: sequence, entryId: row.entry_id, problem: 'previous_hash_mismatch', detail: `entry ${sequence} does not link to the hash of entry ${sequence - 1}` };
  }
  if (entryHash(hashedContentOf(row)) !== row.hash) {
    return { firstBrokenSequence: sequence, entryId: row.entry_id, problem: 'hash_mismatch', detail: `entry ${sequence} does not hash to its stored hash: its content was changed` };
  }
  return undefined;
}

/** The last entry: what to record elsewhere to notice later that entries were cut from the end. */
export async function readAuditChainHead(pool: Pool): Promise<{ sequence: number; entryId: string; hash: string } | null> {
  const result = await pool.query<{ sequence: string; entry_id: string; hash: string }>(
    `SELECT sequence::text AS sequence, entry_id::text AS entry_id, encode(hash, 'hex') AS hash FROM audit_log ORDER BY audit_log.sequence DESC LIMIT 1`,
  );
  const row = result.rows[0];
  return row === undefined ? null : { sequence: Number(row.sequence), entryId: row.entry_id, hash: row.hash };
}
