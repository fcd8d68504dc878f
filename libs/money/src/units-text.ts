import { amountMinorMax, type MinorUnits } from './amount-result';

/**
 * Money as text, the two forms it takes outside the public API, each with one parser:
 *
 * - **Minor units on internal HTTP** ("1050" is 10.50): how every internal contract carries an
 *   amount, so it never passes through a double. Whole digits without a sign or leading zeros, at
 *   most amountMinorMax. `minorUnitsText` writes it.
 * - **Major units an operator types** ("1500.50", "1500", "0.5"): at most two decimals, never
 *   rounded, at most amountMinorMax once in minor units.
 *
 * Both are read digit by digit, never through Number.
 */
const minorUnitsPattern = /^(0|[1-9][0-9]{0,15})$/;
const majorUnitsPattern = /^([0-9]{1,14})(?:\.([0-9]{1,2}))?$/;

/** Minor units from "1050"; undefined for anything else (signs, decimals, leading zeros, above the maximum). */
export function parseMinorUnitsText(text: string): MinorUnits | undefined {
  if (!minorUnitsPattern.test(text)) return undefined;
  const minor = BigInt(text);
  return minor <= amountMinorMax ? minor : undefined;
}

/** The wire text of an amount in minor units: 1050n -> "1050". */
export function minorUnitsText(minor: MinorUnits): string {
  if (minor < 0n || minor > amountMinorMax) throw new RangeError('amount out of range');
  return minor.toString();
}

export interface MajorUnitsOptions {
  /** Whether "0" is an amount (a free fee) or refused (a funding or a credit must move money). */
  allowZero: boolean;
}

/** Minor units from an operator's "1500.50" (surrounding spaces ignored); undefined unless exact and in range. */
export function parseMajorUnitsText(text: string, options: MajorUnitsOptions): MinorUnits | undefined {
  const match = majorUnitsPattern.exec(text.trim());
  if (!match) return undefined;
  const minor = BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  if (minor > amountMinorMax) return undefined;
  if (minor === 0n && !options.allowZero) return undefined;
  return minor;
}

/** Plain decimal text of minor units for operators and JSON: 150050n -> "1500.50", -5n -> "-0.05". */
export function majorUnitsText(minor: MinorUnits): string {
  const negative = minor < 0n;
  const absolute = negative ? -minor : minor;
  return `${negative ? '-' : ''}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
