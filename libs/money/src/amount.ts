/**
 * Money inside the system is an integer count of minor units (cents), held as bigint so that no
 * arithmetic on it can silently become a float. The API speaks JSON numbers with at most two
 * decimals; this module is the one place that converts between the two, exactly.
 */
import { amountMinorMax, type AmountParseResult, type MinorUnits } from './amount-result';
import { isWrittenNumber, parseAmountText } from './amount-text';

export { amountMinorMax, type AmountParseFailure, type AmountParseResult, type MinorUnits } from './amount-result';

/**
 * Parses an API amount into minor units without rounding. One rule, on decimal text, whatever the
 * amount arrived as:
 * - an amount as the client wrote it (a WrittenNumber, see amount-text.ts) is judged on its
 *   written digits; that is what the HTTP layer hands over, so `1.999999999999999999` is refused
 *   even though a double would make it 2;
 * - a number value (a double) is judged on `String(value)`, the shortest decimal that reads back
 *   as that double, which for any amount a client can type with at most 2 decimals is exactly
 *   what it typed (10.1 -> "10.1", 10.005 -> "10.005").
 * Anything else (a numeric string such as "100", null, NaN, Infinity) is not_a_number.
 */
export function parseAmount(value: unknown): AmountParseResult {
  if (isWrittenNumber(value)) return parseAmountText(value.text);
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, failure: 'not_a_number' };
  return parseAmountText(String(value));
}

/**
 * The JSON number for an amount in minor units. An integer below 2^53 divided by 100 is the double
 * nearest the exact decimal, and JSON.stringify prints that double as the shortest decimal, so
 * 1005n -> 10.05 on the wire, exactly.
 */
export function toApiAmount(minor: MinorUnits): number {
  if (minor < 0n || minor > amountMinorMax) throw new RangeError('amount out of range');
  return Number(minor) / 100;
}

/** Minor units from a Postgres BIGINT, which pg returns as a string. */
export function minorFromDatabase(value: string | number | bigint): MinorUnits {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError('not an integer amount');
    return BigInt(value);
  }
  if (!/^-?\d+$/.test(value)) throw new RangeError('not an integer amount');
  return BigInt(value);
}

/** Formats minor units for people: 1234567n -> "12,345.67". */
export function formatMinor(minor: MinorUnits): string {
  const negative = minor < 0n;
  const absolute = negative ? -minor : minor;
  const whole = (absolute / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const cents = (absolute % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${cents}`;
}
