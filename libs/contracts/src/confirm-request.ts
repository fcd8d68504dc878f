import { invalidFieldError, invalidFieldsError, type InvalidField } from '@pwa/errors';
import { expectedInputs } from './input-refusals';
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
 * both confirm endpoints answer alike; each refusal names its fields in invalidFields (decision
 * 0075):
 * 1. PKC_2008: not a JSON object; a field other than quoteId, externalId and note (unknown fields
 *    are refused, decision 0075); quoteId or externalId missing (absent, null or ""); externalId
 *    or note of a type other than string (all of these listed together);
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
    throw invalidFieldError('PKC_2008', 'body', 'wrong_type', `${expectedInputs.jsonObject} with quoteId and externalId`);
  }
  const fields = body as Record<string, unknown>;
  const note = fields.note === undefined || fields.note === '' ? null : fields.note;
  const shapeProblems: InvalidField[] = [
    ...requiredTextFields(fields, { quoteId: expectedInputs.quoteId, externalId: expectedInputs.externalId(externalIdLengthMax) }),
    ...unknownFields(fields, confirmFields),
    ...(fields.externalId !== undefined && fields.externalId !== null && fields.externalId !== '' && typeof fields.externalId !== 'string'
      ? [{ field: 'externalId', problem: 'wrong_type' as const, expected: expectedInputs.externalId(externalIdLengthMax) }]
      : []),
    ...(note !== null && typeof note !== 'string' ? [{ field: 'note', problem: 'wrong_type' as const, expected: expectedInputs.optionalText(noteLengthMax) }] : []),
  ];
  if (shapeProblems.length > 0) throw invalidFieldsError('PKC_2008', shapeProblems);
  const { quoteId, externalId } = fields as { quoteId: unknown; externalId: string };
  if (!isUuid(quoteId)) throw invalidFieldError('PKC_2009', 'quoteId', typeof quoteId === 'string' ? 'wrong_format' : 'wrong_type', expectedInputs.quoteId);
  if ([...externalId].length > externalIdLengthMax) throw invalidFieldError('PKC_2006', 'externalId', 'too_long', `at most ${externalIdLengthMax} characters`);
  if (typeof note === 'string' && [...note].length > noteLengthMax) throw invalidFieldError('PKC_2007', 'note', 'too_long', `at most ${noteLengthMax} characters`);
  const noteText = typeof note === 'string' ? note : null;
  refuseUnsafeText({ externalId, note: noteText });
  return { quoteId: quoteId.toLowerCase(), externalId, note: noteText };
}

const confirmFields: ReadonlySet<string> = new Set(['quoteId', 'externalId', 'note']);

/**
 * The required fields of a body that are absent, null or "" (the confirm, bulk transfer and refund
 * bodies treat all three as missing), each `missing` with what is expected.
 */
export function requiredTextFields(fields: Readonly<Record<string, unknown>>, expected: Readonly<Record<string, string>>): InvalidField[] {
  return Object.entries(expected)
    .filter(([name]) => fields[name] === undefined || fields[name] === null || fields[name] === '')
    .map(([field, expectation]) => ({ field, problem: 'missing', expected: expectation }));
}

/** The fields of a body that its operation does not take, each `unknown` (decision 0075). */
export function unknownFields(fields: Readonly<Record<string, unknown>>, known: ReadonlySet<string>): InvalidField[] {
  return Object.keys(fields)
    .filter((name) => !known.has(name))
    .map((field) => ({ field, problem: 'unknown' }));
}

/** 400 PKC_2008 naming the first text field (in the given order) that holds a control character or a lone surrogate. */
export function refuseUnsafeText(texts: Readonly<Record<string, string | null>>): void {
  for (const [field, text] of Object.entries(texts)) {
    if (text !== null && isUnsafeText(text)) throw invalidFieldError('PKC_2008', field, 'wrong_format', expectedInputs.text);
  }
}
