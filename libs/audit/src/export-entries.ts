import type { Pool } from '@pwa/db';
import type { AuditEntry } from './audit-entry';
import { AuditError, auditErrorCodes } from './audit-error';
import { auditEntryOf } from './audit-rows';
import { csvRecord } from '@pwa/http';
import { filterConditions, readPage, type AuditSearchFilters } from './search-entries';
import { readAuditChainHead } from './verify-chain';

export type AuditExportFormat = 'csv' | 'ndjson';

export interface AuditExportOptions {
  format: AuditExportFormat;
  /** The most entries one export may hold; more matching is refused before anything is sent. Default 100 000. */
  entryCountMax?: number;
  /** Entries per chunk (and per query), 1 to 500. Default 500. */
  pageSize?: number;
}

export interface AuditExport {
  contentType: string;
  fileExtension: string;
  /** How many entries the chunks hold. */
  entryCount: number;
  /** The file, a page of entries per chunk (newest first), read as it is consumed. */
  chunks: AsyncIterable<string>;
}

export const auditExportEntryCountMaxDefault = 100_000;
export const auditExportEntryCountMaxLimit = 1_000_000;
const exportPageSizeMax = 500;

export const auditCsvColumns: readonly string[] = [
  'sequence', 'entry_id', 'occurred_at', 'actor_kind', 'actor_id', 'actor_display_name', 'action', 'target_kind', 'target_id',
  'partner_id', 'outcome', 'reason', 'before', 'after', 'address', 'user_agent', 'request_id', 'previous_hash', 'hash',
];

/**
 * The entries the filters match, as CSV or NDJSON, newest first. It counts first (up to the bound)
 * and refuses an export larger than entryCountMax before a byte is sent, so a caller can answer
 * with an error instead of a cut file; the entries are then read a page at a time as the chunks are
 * consumed, up to the last entry that existed when the export began.
 */
export async function exportAuditEntries(pool: Pool, filters: AuditSearchFilters, options: AuditExportOptions): Promise<AuditExport> {
  const entryCountMax = options.entryCountMax ?? auditExportEntryCountMaxDefault;
  if (!Number.isSafeInteger(entryCountMax) || entryCountMax < 1 || entryCountMax > auditExportEntryCountMaxLimit) {
    throw new RangeError(`entryCountMax must be 1 to ${auditExportEntryCountMaxLimit}`);
  }
  const pageSize = options.pageSize ?? exportPageSizeMax;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1 || pageSize > exportPageSizeMax) throw new RangeError(`pageSize must be 1 to ${exportPageSizeMax}`);
  const head = await readAuditChainHead(pool);
  const atMostSequence = head?.sequence ?? 0;
  const entryCount = await countUpTo(pool, filters, atMostSequence, entryCountMax + 1);
  if (entryCount > entryCountMax) throw new AuditError(auditErrorCodes.exportTooLarge, `more than ${entryCountMax} entries match; narrow the filters (a shorter time range)`);
  const format = options.format;
  switch (format) {
    case 'csv':
      return { contentType: 'text/csv; charset=utf-8', fileExtension: 'csv', entryCount, chunks: exportChunks(pool, filters, { atMostSequence, pageSize }, csvRecord(auditCsvColumns), csvRecordOf) };
    case 'ndjson':
      return { contentType: 'application/x-ndjson; charset=utf-8', fileExtension: 'ndjson', entryCount, chunks: exportChunks(pool, filters, { atMostSequence, pageSize }, '', ndjsonLineOf) };
    default: {
      const unknown: never = format;
      throw new RangeError(`unknown export format ${String(unknown)}`);
    }
  }
}

async function countUpTo(pool: Pool, filters: AuditSearchFilters, atMostSequence: number, countMax: number): Promise<number> {
  const { conditions, values } = filterConditions(filters, { beforeSequence: undefined, atMostSequence });
  values.push(countMax);
  const result = await pool.query<{ count: number }>(
    `SELECT count(*)::integer AS count FROM (SELECT 1 FROM audit_log WHERE ${conditions.join(' AND ')} LIMIT $${values.length}) AS matching`,
    values,
  );
  return result.rows[0]?.count ?? 0;
}

async function* exportChunks(
  pool: Pool,
  filters: AuditSearchFilters,
  { atMostSequence, pageSize }: { atMostSequence: number; pageSize: number },
  header: string,
  line: (entry: AuditEntry) => string,
): AsyncGenerator<string> {
  if (header !== '') yield header;
  let beforeSequence: number | undefined;
  // Every page but the last is full and each starts below the one before, so the walk ends within
  // atMostSequence / pageSize + 1 pages.
  const pageCountMax = Math.ceil(atMostSequence / pageSize) + 1;
  for (let page = 0; page < pageCountMax; page += 1) {
    const rows = await readPage(pool, filters, { beforeSequence, atMostSequence, rowCount: pageSize });
    if (rows.length === 0) return;
    const entries = rows.map(auditEntryOf);
    yield entries.map(line).join('');
    if (rows.length < pageSize) return;
    beforeSequence = entries[entries.length - 1]?.sequence;
  }
}

export function csvRecordOf(entry: AuditEntry): string {
  return csvRecord([
    entry.sequence, entry.entryId, entry.occurredAt, entry.actor.kind, entry.actor.id, entry.actor.displayName, entry.action,
    entry.target.kind, entry.target.id, entry.partnerId, entry.outcome, entry.reason,
    entry.before === null ? null : JSON.stringify(entry.before), entry.after === null ? null : JSON.stringify(entry.after),
    entry.address, entry.userAgent, entry.requestId, entry.previousHash, entry.hash,
  ]);
}

/**
 * One JSON object per line. `<`, `>` and `&` are written as \u escapes (still the same JSON), so a
 * file shown in a browser or pasted into a page cannot open a tag.
 */
export function ndjsonLineOf(entry: AuditEntry): string {
  return `${JSON.stringify(entry).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026')}\n`;
}
