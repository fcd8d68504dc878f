import { PkcError } from '@pwa/errors';

export interface TransferRequestBody {
  quoteId: string;
  externalId: string;
  note: string | null;
}

export const externalIdLengthMax = 100;
export const noteLengthMax = 200;
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Validates the transfer body in a fixed order, so one body always yields one code:
 *   1. PKC_2008: body not an object, quoteId or externalId absent, empty or not a string, note not a string;
 *   2. PKC_2009: quoteId not a UUID;
 *   3. PKC_2006: externalId longer than 100 characters;
 *   4. PKC_2007: note longer than 200 characters.
 * Presence comes first because a missing field makes every other rule moot; then the fields in the
 * order the spec lists them. Lengths are counted in characters (code points), as Postgres counts.
 */
export function parseTransferRequestBody(body: unknown): TransferRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PkcError('PKC_2008', 'Body must be a JSON object with quoteId and externalId');
  const { quoteId, externalId, note } = body as Record<string, unknown>;
  const missing = [
    ...(isNonEmptyString(quoteId) ? [] : ['quoteId']),
    ...(isNonEmptyString(externalId) ? [] : ['externalId']),
  ];
  if (missing.length > 0) throw new PkcError('PKC_2008', `Missing or empty required field(s): ${missing.join(', ')}`);
  if (note !== undefined && note !== null && typeof note !== 'string') throw new PkcError('PKC_2008', 'note must be a string');
  if (!isNonEmptyString(quoteId) || !isNonEmptyString(externalId)) throw new PkcError('PKC_2008');
  if (!uuidPattern.test(quoteId)) throw new PkcError('PKC_2009');
  if (characterCount(externalId) > externalIdLengthMax) throw new PkcError('PKC_2006');
  if (typeof note === 'string' && characterCount(note) > noteLengthMax) throw new PkcError('PKC_2007');
  return { quoteId: quoteId.toLowerCase(), externalId, note: typeof note === 'string' && note.length > 0 ? note : null };
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function characterCount(text: string): number {
  return [...text].length;
}
