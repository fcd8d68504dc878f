/**
 * Money inside the system is an integer count of minor units (cents), held as bigint so that no
 * arithmetic on it can silently become a float. The API speaks JSON numbers with at most two
 * decimals; this module is the one place that converts between the two, exactly.
 */
export type MinorUnits = bigint;

export type AmountParseFailure = 'not_a_number' | 'not_positive' | 'too_many_decimals' | 'too_large';

export type AmountParseResult = { ok: true; minor: MinorUnits } | { ok: false; failure: AmountParseFailure };

/** Far above any limit the API allows, and far below 2^63 so BIGINT columns can never overflow. */
export const amountMinorMax = 10n ** 15n;

const plainDecimal = /^(\d+)(?:\.(\d+))?$/;
const exponential = /^(\d)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * Parses an API amount (a JSON number) into minor units without rounding. A JSON number reaches us
 * as a double; `String(value)` gives the shortest decimal that reads back as that double, which for
 * any amount a client can type with at most 2 decimals is exactly what it typed (10.1 -> "10.1",
 * 10.005 -> "10.005"). The decimal digits are then counted, never rounded: three or more decimals
 * are refused even when the extra digits are zeros only after a float round trip.
 */
export function parseAmount(value: unknown): AmountParseResult {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, failure: 'not_a_number' };
  if (value <= 0) return { ok: false, failure: 'not_positive' };
  const digits = decimalDigitsOf(String(value));
  if (digits === undefined) return { ok: false, failure: 'not_a_number' };
  const fraction = digits.fraction.replace(/0+$/, '');
  if (fraction.length > 2) return { ok: false, failure: 'too_many_decimals' };
  const minor = BigInt(digits.whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (minor > amountMinorMax) return { ok: false, failure: 'too_large' };
  return { ok: true, minor };
}

/** Splits a non-negative decimal or exponential numeral into whole and fraction digit strings. */
function decimalDigitsOf(text: string): { whole: string; fraction: string } | undefined {
  const plain = plainDecimal.exec(text);
  if (plain) return { whole: plain[1] ?? '0', fraction: plain[2] ?? '' };
  const scientific = exponential.exec(text);
  if (!scientific) return undefined;
  const mantissa = `${scientific[1] ?? ''}${scientific[2] ?? ''}`;
  const pointPosition = 1 + Number(scientific[3]);
  if (pointPosition <= 0) return { whole: '0', fraction: `${'0'.repeat(-pointPosition)}${mantissa}` };
  if (pointPosition >= mantissa.length) return { whole: mantissa.padEnd(pointPosition, '0'), fraction: '' };
  return { whole: mantissa.slice(0, pointPosition), fraction: mantissa.slice(pointPosition) };
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
