import { amountMinorMax, type AmountParseResult } from './amount-result';

/**
 * A JSON number exactly as the client wrote it ("10.50", "1.5E7", "1.999999999999999999"), before
 * any conversion to a binary double could round it. An HTTP layer that reads the body's number
 * lexemes wraps them in this; `parseAmount` then judges the amount on its written digits.
 *
 * The brand is a symbol so that no JSON value (whose keys are always strings) can pass for one.
 */
const writtenNumberBrand: unique symbol = Symbol('writtenNumber');

export interface WrittenNumber {
  readonly [writtenNumberBrand]: true;
  /** The number's lexeme as it appeared in the request text. */
  readonly text: string;
}

export function writtenNumber(text: string): WrittenNumber {
  return Object.freeze({ [writtenNumberBrand]: true as const, text });
}

export function isWrittenNumber(value: unknown): value is WrittenNumber {
  return typeof value === 'object' && value !== null && (value as Partial<WrittenNumber>)[writtenNumberBrand] === true;
}

/** RFC 8259's number grammar: optional minus, integer without leading zeros, fraction, exponent. */
const jsonNumber = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Digits in amountMinorMax (10^15): a minor-unit amount with more digits is too large. */
const minorDigitsMax = amountMinorMax.toString().length;

/**
 * Parses an amount from its written JSON number text into minor units, exactly: the digits are
 * read as written, never through a double, so `1.999999999999999999` has 18 decimals (refused)
 * even though a double would make it 2.
 *
 * Decisions, in order:
 * - not a JSON number lexeme, or a number outside the range of an IEEE 754 double (`1e400`, which
 *   RFC 8259 §6 warns most parsers cannot read, and which would read as Infinity): not_a_number;
 * - zero or negative: not_positive;
 * - more than 2 decimals once trailing zeros are dropped (`10.005`, `1e-3`): too_many_decimals.
 *   Trailing zeros change nothing and are not rounding, so `10.50`, `10.500` and `1.0500e1` are
 *   10.50 and 10.50 and 10.50: the same rule as for a number value (a double carries no trailing zeros);
 * - above amountMinorMax: too_large.
 *
 * Exponents are allowed (`1.5E7` is how some languages print a double); the work done is bounded
 * by the length of the text, whatever the exponent says.
 */
export function parseAmountText(text: string): AmountParseResult {
  const match = jsonNumber.exec(text);
  if (!match) return { ok: false, failure: 'not_a_number' };
  if (!Number.isFinite(Number(text))) return { ok: false, failure: 'not_a_number' };
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const allDigits = `${whole}${fraction}`.replace(/^0+/, '');
  const significant = allDigits.replace(/0+$/, '');
  if (significant === '') return { ok: false, failure: 'not_positive' };
  if (sign === '-') return { ok: false, failure: 'not_positive' };
  // The value is significant × 10^lastDigitExponent.
  const trailingZeroCount = allDigits.length - significant.length;
  const lastDigitExponent = Number(exponentText) - fraction.length + trailingZeroCount;
  if (lastDigitExponent < -2) return { ok: false, failure: 'too_many_decimals' };
  const minorExponent = lastDigitExponent + 2;
  if (significant.length + minorExponent > minorDigitsMax) return { ok: false, failure: 'too_large' };
  const minor = BigInt(significant) * 10n ** BigInt(minorExponent);
  if (minor > amountMinorMax) return { ok: false, failure: 'too_large' };
  return { ok: true, minor };
}
