import { PkcError } from '@pwa/errors';

export interface CollectionRequestBody {
  quoteId: string;
  externalId: string;
  note: string | null;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const externalIdLengthMax = 100;
export const noteLengthMax = 200;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

/**
 * Validates the confirm body in a fixed, documented order, so one body always gets one code:
 * 1. PKC_2008: not a JSON object, quoteId or externalId missing (absent, null, empty string), or
 *    externalId / note of a type other than string;
 * 2. PKC_2009: quoteId not a UUID (a non-string quoteId included);
 * 3. PKC_2006: externalId longer than 100 characters;
 * 4. PKC_2007: note longer than 200 characters.
 * Lengths count Unicode code points, as a partner counts characters.
 */
export function parseCollectionRequestBody(body: unknown): CollectionRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new PkcError('PKC_2008', 'Body must be a JSON object with quoteId and externalId');
  const fields = body as Record<string, unknown>;
  const missing = (['quoteId', 'externalId'] as const).filter((name) => fields[name] === undefined || fields[name] === null || fields[name] === '');
  if (missing.length > 0) throw new PkcError('PKC_2008', `Missing required field: ${missing.join(', ')}`);
  if (typeof fields.externalId !== 'string') throw new PkcError('PKC_2008', 'externalId must be a string');
  const note = fields.note ?? null;
  if (note !== null && typeof note !== 'string') throw new PkcError('PKC_2008', 'note must be a string');
  if (!isUuid(fields.quoteId)) throw new PkcError('PKC_2009');
  if ([...fields.externalId].length > externalIdLengthMax) throw new PkcError('PKC_2006');
  if (note !== null && [...note].length > noteLengthMax) throw new PkcError('PKC_2007');
  return { quoteId: fields.quoteId.toLowerCase(), externalId: fields.externalId, note };
}
