import type { AuditActor, AuditEntry, AuditOutcome, AuditTarget, JsonValue } from './audit-entry';
import type { HashedEntryContent } from './entry-hash';

/** UTC to the microsecond, the form occurred_at is hashed in (a JavaScript Date would cut the microseconds). */
export const occurredAtFormat = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * The select list every read of audit_log uses: bigint and bytea as text, the time as hashed.
 * A statement using it orders by `audit_log.sequence`: a bare `sequence` would name this list's
 * text column, and '9' sorts after '50'.
 */
export const auditRowColumns = `sequence::text AS sequence, entry_id::text AS entry_id,
  to_char(occurred_at AT TIME ZONE 'UTC', ${occurredAtFormat}) AS occurred_at,
  actor, action, target, partner_id::text AS partner_id, before, after, outcome, reason, address,
  user_agent, request_id, encode(previous_hash, 'hex') AS previous_hash, encode(hash, 'hex') AS hash`;

export interface AuditRow {
  sequence: string;
  entry_id: string;
  occurred_at: string;
  actor: JsonValue;
  action: string;
  target: JsonValue;
  partner_id: string | null;
  before: JsonValue;
  after: JsonValue;
  outcome: string;
  reason: string | null;
  address: string | null;
  user_agent: string | null;
  request_id: string | null;
  previous_hash: string;
  hash: string;
}

/** What the row's hash must cover: the stored values as they are. */
export function hashedContentOf(row: AuditRow): HashedEntryContent {
  return {
    sequence: Number(row.sequence),
    entryId: row.entry_id,
    occurredAt: row.occurred_at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    partnerId: row.partner_id,
    before: row.before,
    after: row.after,
    outcome: row.outcome,
    reason: row.reason,
    address: row.address,
    userAgent: row.user_agent,
    requestId: row.request_id,
    previousHash: row.previous_hash,
  };
}

export function auditEntryOf(row: AuditRow): AuditEntry {
  return {
    sequence: Number(row.sequence),
    entryId: row.entry_id,
    occurredAt: row.occurred_at,
    actor: actorOf(row.actor),
    action: row.action,
    target: targetOf(row.target),
    partnerId: row.partner_id,
    before: row.before,
    after: row.after,
    outcome: row.outcome as AuditOutcome,
    reason: row.reason,
    address: row.address,
    userAgent: row.user_agent,
    requestId: row.request_id,
    previousHash: row.previous_hash,
    hash: row.hash,
  };
}

function memberText(value: JsonValue, key: string): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return '';
  const member = value[key];
  return typeof member === 'string' ? member : '';
}

/** The table's checks keep actor.kind to person or system; the fields are read as they are stored. */
function actorOf(value: JsonValue): AuditActor {
  return { kind: memberText(value, 'kind') === 'system' ? 'system' : 'person', id: memberText(value, 'id'), displayName: memberText(value, 'displayName') };
}

function targetOf(value: JsonValue): AuditTarget {
  return { kind: memberText(value, 'kind'), id: memberText(value, 'id') };
}
