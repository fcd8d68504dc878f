import type { Pool } from '@pwa/db';
import type { AuditEntry, AuditOutcome } from './audit-entry';
import { AuditError, auditErrorCodes } from './audit-error';
import { auditEntryOf, auditRowColumns, type AuditRow } from './audit-rows';

export interface AuditSearchFilters {
  /** The dashboard always passes its partner: a member never reads another partner's entries. */
  partnerId?: string;
  actorId?: string;
  /** Actions starting with this text: `partner.` finds `partner.status.change` and `partner.webhook_url.change`. */
  actionPrefix?: string;
  targetKind?: string;
  targetId?: string;
  outcome?: AuditOutcome;
  /** Entries that occurred at or after this instant. */
  occurredFrom?: Date;
  /** Entries that occurred before this instant. */
  occurredBefore?: Date;
}

export interface AuditSearchPage {
  /** Entries per page, 1 to auditSearchPageSizeMax. Default 50. */
  size?: number;
  /** The previous page's nextCursor. */
  cursor?: string;
}

export interface AuditSearchResult {
  /** Newest first. */
  entries: AuditEntry[];
  /** Where the next (older) page starts; null on the last page. */
  nextCursor: string | null;
}

export const auditSearchPageSizeDefault = 50;
export const auditSearchPageSizeMax = 200;

/** A cursor is the sequence of the page's last entry; the next page holds the entries before it. */
const cursorPattern = /^[1-9][0-9]{0,15}$/;

/**
 * One page of the entries the filters match, newest first, after the cursor's position.
 *
 * The order is the chain's sequence, newest first, and a page starts below the previous page's
 * last sequence. keysetPageQuery (@pwa/db) is not used: it orders by (created_at, id) with a UUID id
 * and a scope that every list has, while the audit log's order is one gap-free bigint that is
 * already unique, and the operators' log has no scope.
 */
export async function searchAuditEntries(pool: Pool, filters: AuditSearchFilters, page: AuditSearchPage = {}): Promise<AuditSearchResult> {
  const size = page.size ?? auditSearchPageSizeDefault;
  if (!Number.isSafeInteger(size) || size < 1 || size > auditSearchPageSizeMax) searchInvalid(`size must be 1 to ${auditSearchPageSizeMax}`);
  const before = page.cursor === undefined ? undefined : sequenceOfCursor(page.cursor);
  const rows = await readPage(pool, filters, { beforeSequence: before, rowCount: size + 1 });
  const entries = rows.slice(0, size).map(auditEntryOf);
  const last = entries[entries.length - 1];
  return { entries, nextCursor: rows.length > size && last !== undefined ? String(last.sequence) : null };
}

function sequenceOfCursor(cursor: string): number {
  if (!cursorPattern.test(cursor)) searchInvalid('cursor is not one this search gave');
  return Number(cursor);
}

function searchInvalid(message: string): never {
  throw new AuditError(auditErrorCodes.searchInvalid, message);
}

export interface PageBounds {
  /** Only entries with a smaller sequence. */
  beforeSequence: number | undefined;
  /** Only entries up to this sequence (an export's head when it began). */
  atMostSequence?: number;
  rowCount: number;
}

/** The statement's conditions and values for the filters, in a fixed order, so a few texts cover every search. */
export function filterConditions(filters: AuditSearchFilters, bounds: Omit<PageBounds, 'rowCount'>): { conditions: string[]; values: unknown[] } {
  const values: unknown[] = [];
  const conditions: string[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown): void => {
    if (value === undefined) return;
    values.push(value);
    conditions.push(sql(`$${values.length}`));
  };
  const actionPrefix = filters.actionPrefix;
  if (actionPrefix !== undefined && !/^[a-z0-9_.]{1,100}$/.test(actionPrefix)) throw new AuditError(auditErrorCodes.searchInvalid, 'actionPrefix must be lower-case words and dots');
  if (filters.outcome !== undefined && filters.outcome !== 'done' && filters.outcome !== 'refused') throw new AuditError(auditErrorCodes.searchInvalid, 'outcome must be done or refused');
  add((p) => `partner_id = ${p}::uuid`, uuidFilter(filters.partnerId));
  add((p) => `actor->>'id' = ${p}`, filters.actorId);
  // Actions are lower-case words, digits, underscores and dots, all of which sort below '~' in the
  // C collation: the prefix's range is [prefix, prefix || '~'), which the action index answers.
  add((p) => `action COLLATE "C" >= ${p}::text AND action COLLATE "C" < (${p}::text || '~')`, actionPrefix);
  add((p) => `target->>'kind' = ${p}`, filters.targetKind);
  add((p) => `target->>'id' = ${p}`, filters.targetId);
  add((p) => `outcome = ${p}`, filters.outcome);
  add((p) => `occurred_at >= ${p}::timestamptz`, dateFilter(filters.occurredFrom, 'occurredFrom'));
  add((p) => `occurred_at < ${p}::timestamptz`, dateFilter(filters.occurredBefore, 'occurredBefore'));
  add((p) => `sequence < ${p}`, bounds.beforeSequence);
  add((p) => `sequence <= ${p}`, bounds.atMostSequence);
  return { conditions, values };
}

export async function readPage(pool: Pool, filters: AuditSearchFilters, bounds: PageBounds): Promise<AuditRow[]> {
  const { conditions, values } = filterConditions(filters, bounds);
  values.push(bounds.rowCount);
  const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
  const result = await pool.query<AuditRow>(`SELECT ${auditRowColumns} FROM audit_log ${where} ORDER BY audit_log.sequence DESC LIMIT $${values.length}`, values);
  return result.rows;
}

function uuidFilter(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)) throw new AuditError(auditErrorCodes.searchInvalid, 'partnerId must be a UUID');
  return value.toLowerCase();
}

function dateFilter(value: Date | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new AuditError(auditErrorCodes.searchInvalid, `${field} must be a valid date`);
  return value.toISOString();
}
