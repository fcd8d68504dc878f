import { invalidFieldError, invalidFieldsError, type InvalidField } from '@pwa/errors';
import { amountRefusal, expectedInputs, externalIdLengthMax, refuseUnsafeText, requiredTextFields, unknownFields } from '@pwa/contracts';
import { parseAmount, type MinorUnits } from '@pwa/money';

/** A refund request that passed every check of the body. */
export interface RefundRequest {
  externalId: string;
  /** Absent (or null): what is left to refund on the collection. */
  amountMinor: MinorUnits | undefined;
  /** Absent, null and "" all mean no reason. */
  reason: string | null;
}

export const refundReasonLengthMax = 200;
const knownFields: ReadonlySet<string> = new Set(['externalId', 'amount', 'reason']);

/**
 * Checks a refund body in one fixed order, so one body always earns one code, naming the fields in
 * invalidFields (decision 0075); nothing here touches state, so a refused body reserves nothing:
 * 1. PKC_2008: not a JSON object; a field other than externalId, amount and reason (a mistyped
 *    "ammount" must not turn a partial refund into a full one); externalId missing, null or "";
 *    externalId or reason of a type other than string (all of these listed together);
 * 2. PKC_2002: amount given (not null) but not a number greater than zero with at most 2 decimals;
 *    PKC_2004: an amount too large to hold (far above any collection);
 * 3. PKC_2006: externalId longer than 100 characters;
 * 4. PKC_2007: reason longer than 200 characters;
 * 5. PKC_2008: externalId or reason holds a control character or a lone surrogate.
 * Lengths count Unicode code points, as Postgres does.
 */
export function parseRefundRequest(body: unknown): RefundRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidFieldError('PKC_2008', 'body', 'wrong_type', `${expectedInputs.jsonObject} with externalId, and optionally amount and reason`);
  }
  const fields = body as Record<string, unknown>;
  const externalIdExpected = expectedInputs.externalId(externalIdLengthMax);
  const reason = fields.reason === undefined || fields.reason === '' ? null : fields.reason;
  const problems: InvalidField[] = [...unknownFields(fields, knownFields), ...requiredTextFields(fields, { externalId: externalIdExpected })];
  if (fields.externalId !== undefined && fields.externalId !== null && fields.externalId !== '' && typeof fields.externalId !== 'string') problems.push({ field: 'externalId', problem: 'wrong_type', expected: externalIdExpected });
  if (reason !== null && typeof reason !== 'string') problems.push({ field: 'reason', problem: 'wrong_type', expected: expectedInputs.optionalText(refundReasonLengthMax) });
  if (problems.length > 0) throw invalidFieldsError('PKC_2008', problems);
  const externalId = fields.externalId as string;
  const reasonText = typeof reason === 'string' ? reason : null;
  const amountMinor = fields.amount === undefined || fields.amount === null ? undefined : amountOf(fields.amount);
  if ([...externalId].length > externalIdLengthMax) throw invalidFieldError('PKC_2006', 'externalId', 'too_long', `at most ${externalIdLengthMax} characters`);
  if (reasonText !== null && [...reasonText].length > refundReasonLengthMax) {
    throw invalidFieldError('PKC_2007', 'reason', 'too_long', `at most ${refundReasonLengthMax} characters`, { lead: `reason longer than ${refundReasonLengthMax} characters` });
  }
  refuseUnsafeText({ externalId, reason: reasonText });
  return { externalId, amountMinor, reason: reasonText };
}

function amountOf(value: unknown): MinorUnits {
  const amount = parseAmount(value);
  if (amount.ok) return amount.minor;
  if (amount.failure === 'too_large') throw invalidFieldError('PKC_2004', 'amount', 'out_of_range', 'at most what is left to refund on the collection', { lead: 'amount is far above any collection; nothing was refunded' });
  throw amountRefusal(value, amount.failure);
}
