import { createHash } from 'node:crypto';
import type { JsonValue } from './audit-entry';
import { canonicalJson } from './canonical-json';

/** The previous hash of the first entry: 32 zero bytes, hexadecimal. */
export const genesisHash = '0'.repeat(64);

/** Names the content format, so a future format can be told apart in the hashed text. */
export const entryHashVersion = 'audit-entry-v1';

/**
 * Everything an entry's hash covers, as stored: the sequence and the previous entry's hash too, so
 * an entry cannot be moved, dropped or replaced without breaking the chain after it. actor, target,
 * before and after are the JSON the table holds (verification hashes what it reads, not a re-picked
 * copy, so a key added to a stored actor is noticed as well).
 */
export interface HashedEntryContent {
  sequence: number;
  entryId: string;
  occurredAt: string;
  actor: JsonValue;
  action: string;
  target: JsonValue;
  partnerId: string | null;
  before: JsonValue;
  after: JsonValue;
  outcome: string;
  reason: string | null;
  address: string | null;
  userAgent: string | null;
  requestId: string | null;
  previousHash: string;
}

/** The canonical text an entry's hash is computed over. */
export function canonicalEntryText(content: HashedEntryContent): string {
  return canonicalJson({
    version: entryHashVersion,
    sequence: String(content.sequence),
    entryId: content.entryId,
    occurredAt: content.occurredAt,
    actor: content.actor,
    action: content.action,
    target: content.target,
    partnerId: content.partnerId,
    before: content.before,
    after: content.after,
    outcome: content.outcome,
    reason: content.reason,
    address: content.address,
    userAgent: content.userAgent,
    requestId: content.requestId,
    previousHash: content.previousHash,
  });
}

/** SHA-256 of the entry's canonical text (UTF-8), hexadecimal. */
export function entryHash(content: HashedEntryContent): string {
  return createHash('sha256').update(canonicalEntryText(content), 'utf8').digest('hex');
}
