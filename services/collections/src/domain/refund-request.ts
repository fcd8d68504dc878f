import { PkcError } from '@pwa/errors';
import { externalIdLengthMax, isUnsafeText, unsafeTextRule } from '@pwa/contracts';
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
const knownFields = new Set(['externalId', 'amount', 'reason']);

const amountMessages = {
  not_a_number: 'amount must be a JSON number greater than zero (not a string)',
  not_positive: 'amount must be a positive number greater than zero',
  too_many_decimals: 'amount must have at most 2 decimal places',
} as const;

/**
 * Checks a refund body in one fixed order, so one body always earns one code; nothing here touches
 * state, so a refused body reserves nothing:
 * 1. PKC_2008: not a JSON object; a field other than externalId, amount and reason (a mistyped
 *    "ammount" must not turn a partial refund into a full one); externalId missing, null or "";
 *    externalId or reason of a type other than string;
 * 2. PKC_2002: amount given (not null) but not a number greater than zero with at most 2 decimals;
 *    PKC_2004: an amount too large to hold (far above any collection);
 * 3. PKC_2006: externalId longer than 100 characters;
 * 4. PKC_2007: reason longer than 200 characters;
 * 5. PKC_2008: externalId or reason holds a control character or a lone surrogate.
 * Lengths count Unicode code points, as Postgres does.
 */
export function parseRefundRequest(body: unknown): RefundRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PkcError('PKC_2008', 'Body must be a JSON object with externalId, and optionally amount and reason');
  }
  const fields = body as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((name) => !knownFields.has(name));
  if (unknown.length > 0) throw new PkcError('PKC_2008', `Unknown field(s): ${unknown.slice(0, 10).map((name) => JSON.stringify(name.slice(0, 40))).join(', ')}; a refund takes externalId, amount and reason`);
  if (fields.externalId === undefined || fields.externalId === null || fields.externalId === '') throw new PkcError('PKC_2008', 'Missing required field(s): externalId');
  if (typeof fields.externalId !== 'string') throw new PkcError('PKC_2008', 'externalId must be a string');
  const reason = fields.reason === undefined || fields.reason === '' ? null : fields.reason;
  if (reason !== null && typeof reason !== 'string') throw new PkcError('PKC_2008', 'reason must be a string');
  const amountMinor = fields.amount === undefined || fields.amount === null ? undefined : amountOf(fields.amount);
  if ([...fields.externalId].length > externalIdLengthMax) throw new PkcError('PKC_2006');
  if (reason !== null && [...reason].length > refundReasonLengthMax) throw new PkcError('PKC_2007', `reason longer than ${refundReasonLengthMax} characters`);
  if (isUnsafeText(fields.externalId)) throw new PkcError('PKC_2008', `externalId ${unsafeTextRule}`);
  if (reason !== null && isUnsafeText(reason)) throw new PkcError('PKC_2008', `reason ${unsafeTextRule}`);
  return { externalId: fields.externalId, amountMinor, reason };
}

function amountOf(value: unknown): MinorUnits {
  const amount = parseAmount(value);
  if (amount.ok) return amount.minor;
  if (amount.failure === 'too_large') throw new PkcError('PKC_2004', 'amount is far above any collection; nothing was refunded');
  throw new PkcError('PKC_2002', amountMessages[amount.failure]);
}
