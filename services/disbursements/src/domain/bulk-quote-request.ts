import { bulkItemsMax, expectedInputs, externalIdLengthMax, noteLengthMax, refuseUnsafeText, unknownFields, validateQuoteRequest } from '@pwa/contracts';
import { echoInput, invalidFieldError, invalidFieldsError, invalidFieldsNestedUnder, invalidFieldsOfError, isPkcError, type InvalidField, type PkcCode, type PkcError } from '@pwa/errors';
import { isCurrency, type Currency } from '@pwa/money';

/** The longest message of a failureReason (libs/contracts event-fields). */
const failureReasonMessageLengthMax = 300;

/** An item whose own fields passed: what the bulk quote prices and checks with the wallet. */
export interface CheckedBulkItem {
  index: number;
  outcome: 'checked';
  externalId: string;
  phone: string;
  amountMinor: bigint;
  note: string | null;
}

/** An item refused for its own fields (or, later, by the wallet): left out of the bulk. */
export interface InvalidBulkItem {
  index: number;
  outcome: 'invalid';
  /** The externalId as sent when it was a string, else null. */
  externalId: string | null;
  code: PkcCode;
  message: string;
  /** Only for a refusal of the item's own fields: each named under the item (`items.3.phone`), as a refusal's invalidFields. */
  invalidFields?: InvalidField[];
}

export type BulkItemCheck = CheckedBulkItem | InvalidBulkItem;

export interface BulkQuoteRequest {
  currency: Currency;
  items: BulkItemCheck[];
}

/**
 * Checks a bulk quote body (issue 20, decision 0055). The whole call is refused only for what no
 * item can be judged without: not an object, currency or items missing, a field other than these
 * two, items not a list of 1 to 1,000 (PKC_2008, the fields named in invalidFields), a currency
 * that is not LRD or USD (PKC_2005). Then each item on its own, in one fixed order, so the same
 * item always earns the same code: a field other than phone, amount, externalId and note (PKC_2008;
 * unknown fields are refused everywhere, decision 0075), the single quote's rules
 * (validateQuoteRequest: fields missing PKC_2008, phone PKC_2001, amount PKC_2002, bounds PKC_2003
 * and PKC_2004), then the transfer's (externalId missing or not a string PKC_2008, longer than 100
 * PKC_2006, note not a string PKC_2008, longer than 200 PKC_2007, control characters PKC_2008), then
 * an externalId that two or more items share (PKC_6001 on each of them: which one was meant cannot
 * be known). Pure: nothing is read or written.
 */
export function parseBulkQuoteRequest(body: unknown): BulkQuoteRequest {
  if (!isPlainObject(body)) throw invalidFieldError('PKC_2008', 'body', 'wrong_type', `${expectedInputs.jsonObject} with currency and items`);
  const itemsExpected = `a list of 1 to ${bulkItemsMax} payouts`;
  const missing = (['currency', 'items'] as const).filter((name) => body[name] === undefined || body[name] === null);
  const problems: InvalidField[] = [
    ...missing.map((field): InvalidField => ({ field, problem: 'missing', expected: field === 'currency' ? expectedInputs.currency : itemsExpected })),
    ...unknownFields(body, bulkFields),
  ];
  const { items } = body;
  if (items !== undefined && items !== null && !Array.isArray(items)) problems.push({ field: 'items', problem: 'wrong_type', expected: itemsExpected });
  else if (Array.isArray(items) && (items.length === 0 || items.length > bulkItemsMax)) problems.push({ field: 'items', problem: 'out_of_range', expected: itemsExpected });
  if (problems.length > 0 || !Array.isArray(items)) throw invalidFieldsError('PKC_2008', problems);
  const { currency } = body;
  if (!isCurrency(currency)) throw invalidFieldError('PKC_2005', 'currency', typeof currency === 'string' ? 'not_allowed' : 'wrong_type', expectedInputs.currency);
  const checked = items.map((item: unknown, index) => checkItem(item, index, currency));
  return { currency, items: refuseSharedExternalIds(checked) };
}

const bulkFields: ReadonlySet<string> = new Set(['currency', 'items']);
const itemFields: ReadonlySet<string> = new Set(['phone', 'amount', 'externalId', 'note']);

/**
 * One item, judged by the single quote's and transfer's rules. A refusal names its fields under
 * the item (`items.3.phone`), in its invalidFields and its message, so a partner fixing a file of
 * a thousand lines knows which line and which field.
 */
function checkItem(item: unknown, index: number, currency: Currency): BulkItemCheck {
  const itemField = `items.${index}`;
  if (!isPlainObject(item)) return refusedItem(index, null, invalidFieldError('PKC_2008', itemField, 'wrong_type', `${expectedInputs.jsonObject} with phone, amount and externalId`));
  const externalId = typeof item.externalId === 'string' ? item.externalId : null;
  try {
    const unknown = unknownFields(item, itemFields);
    if (unknown.length > 0) throw invalidFieldsError('PKC_2008', unknown);
    const quoted = validateQuoteRequest({ phone: item.phone, amount: item.amount, currency }, [currency]);
    const note = noteOf(item.note);
    checkExternalIdAndNote(item.externalId, note);
    return { index, outcome: 'checked', externalId: item.externalId, phone: quoted.phone, amountMinor: quoted.amountMinor, note };
  } catch (error) {
    if (!isPkcError(error)) throw error;
    return refusedItem(index, externalId, invalidFieldsNestedUnder(error, itemField));
  }
}

/** The item refused for its own fields: the code, the message (a failureReason's, at most 300 characters: a long list is cut) and the fields. */
function refusedItem(index: number, externalId: string | null, refusal: PkcError): InvalidBulkItem {
  const invalidFields = invalidFieldsOfError(refusal);
  return { index, outcome: 'invalid', externalId, code: refusal.code, message: echoInput(refusal.message, failureReasonMessageLengthMax - 1), ...(invalidFields === undefined ? {} : { invalidFields }) };
}

/** Absent, null and "" all mean no note (as for a single transfer). */
function noteOf(note: unknown): string | null {
  if (note === undefined || note === null || note === '') return null;
  if (typeof note !== 'string') throw invalidFieldError('PKC_2008', 'note', 'wrong_type', expectedInputs.optionalText(noteLengthMax));
  return note;
}

/** The transfer body's rules on externalId and note (parseConfirmRequestBody's order). */
function checkExternalIdAndNote(externalId: unknown, note: string | null): asserts externalId is string {
  const expected = expectedInputs.externalId(externalIdLengthMax);
  if (externalId === undefined || externalId === null || externalId === '') throw invalidFieldError('PKC_2008', 'externalId', 'missing', expected);
  if (typeof externalId !== 'string') throw invalidFieldError('PKC_2008', 'externalId', 'wrong_type', expected);
  if ([...externalId].length > externalIdLengthMax) throw invalidFieldError('PKC_2006', 'externalId', 'too_long', `at most ${externalIdLengthMax} characters`);
  if (note !== null && [...note].length > noteLengthMax) throw invalidFieldError('PKC_2007', 'note', 'too_long', `at most ${noteLengthMax} characters`);
  refuseUnsafeText({ externalId, note });
}

function refuseSharedExternalIds(items: BulkItemCheck[]): BulkItemCheck[] {
  const uses = new Map<string, number>();
  for (const item of items) if (item.outcome === 'checked') uses.set(item.externalId, (uses.get(item.externalId) ?? 0) + 1);
  return items.map((item) =>
    item.outcome === 'checked' && (uses.get(item.externalId) ?? 0) > 1
      ? invalidItem(item, 'PKC_6001', `externalId "${echoInput(item.externalId)}" is used by more than one item of this bulk`)
      : item,
  );
}

/** The item refused with this code and message (an externalId held elsewhere, a wallet refusal). */
export function invalidItem(item: Pick<BulkItemCheck, 'index' | 'externalId'>, code: PkcCode, message: string): InvalidBulkItem {
  return { index: item.index, outcome: 'invalid', externalId: item.externalId, code, message };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
