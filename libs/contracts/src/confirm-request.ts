import { PkcError } from '@pwa/errors';
import { isUuid } from './internal/wire-fields';

/** The body of both confirm calls: POST collection/request and POST disbursement/transfer. */
export interface ConfirmRequestBody {
  quoteId: string;
  externalId: string;
  /** Absent, null and "" all mean no note. */
  note: string | null;
}

export const externalIdLengthMax = 100;
export const noteLengthMax = 200;

/** The API's text rule (libs/http text-safety.ts): \p{Cc} is C0, DEL and C1; with the u flag \p{Cs} matches only lone surrogates. */
const unsafeCharacter = /[\p{Cc}\p{Cs}]/u;
export const unsafeTextRule = 'must not contain control characters (such as NUL, tab or line breaks) or lone surrogates';

/** Whether a partner's text breaks that rule (the confirm body's and the refund body's). */
export function isUnsafeText(text: string): boolean {
  return unsafeCharacter.test(text);
}

/**
 * Validates a confirm body in one fixed, documented order, so one body always gets one code and
 * both confirm endpoints answer alike:
 * 1. PKC_2008: not a JSON object; quoteId or externalId missing (absent, null or ""); externalId
 *    or note of a type other than string;
 * 2. PKC_2009: quoteId not a UUID (a quoteId that is not a string included);
 * 3. PKC_2006: externalId longer than 100 characters;
 * 4. PKC_2007: note longer than 200 characters;
 * 5. PKC_2008: externalId or note holds a control character (C0 with NUL, tab and line breaks,
 *    DEL, C1) or a lone surrogate.
 * Lengths count Unicode code points, as a partner counts characters (and as Postgres does).
 * Nothing here touches state: the caller parses the body before it uses the quote or takes the
 * externalId, so a refused body consumes nothing. (The HTTP layer of every service refuses such
 * text in any body already; this keeps the contract whole for any other caller.)
 */
export function parseConfirmRequestBody(body: unknown): ConfirmRequestBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PkcError('PKC_2008', 'Body must be a JSON object with quoteId and externalId');
  }
  const fields = body as Record<string, unknown>;
  const missing = (['quoteId', 'externalId'] as const).filter((name) => fields[name] === undefined || fields[name] === null || fields[name] === '');
  if (missing.length > 0) throw new PkcError('PKC_2008', `Missing required field(s): ${missing.join(', ')}`);
  if (typeof fields.externalId !== 'string') throw new PkcError('PKC_2008', 'externalId must be a string');
  const note = fields.note === undefined || fields.note === '' ? null : fields.note;
  if (note !== null && typeof note !== 'string') throw new PkcError('PKC_2008', 'note must be a string');
  if (!isUuid(fields.quoteId)) throw new PkcError('PKC_2009');
  if ([...fields.externalId].length > externalIdLengthMax) throw new PkcError('PKC_2006');
  if (note !== null && [...note].length > noteLengthMax) throw new PkcError('PKC_2007');
  if (isUnsafeText(fields.externalId)) throw new PkcError('PKC_2008', `externalId ${unsafeTextRule}`);
  if (note !== null && isUnsafeText(note)) throw new PkcError('PKC_2008', `note ${unsafeTextRule}`);
  return { quoteId: fields.quoteId.toLowerCase(), externalId: fields.externalId, note };
}
