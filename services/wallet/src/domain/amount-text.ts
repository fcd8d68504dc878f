import { amountMinorMax } from '@pwa/money';

/**
 * Amounts as text. On internal HTTP an amount travels as a decimal string of minor units
 * ("1050" is 10.50), so it never passes through a float; the operator CLI takes major units with at
 * most two decimals ("1500.50"). Both are parsed digit by digit, never through Number.
 */
const minorUnitsText = /^(0|[1-9][0-9]{0,15})$/;
const decimalAmountText = /^([0-9]{1,14})(?:\.([0-9]{1,2}))?$/;

/** Minor units from "1050"; undefined for anything else (signs, decimals, leading zeros, above the maximum). */
export function parseMinorUnitsText(text: string): bigint | undefined {
  if (!minorUnitsText.test(text)) return undefined;
  const minor = BigInt(text);
  return minor <= amountMinorMax ? minor : undefined;
}

/** Minor units from an operator's "1500.50" (or "1500", "0.5"); undefined unless it is positive and exact. */
export function parseDecimalAmountText(text: string): bigint | undefined {
  const match = decimalAmountText.exec(text.trim());
  if (!match) return undefined;
  const whole = BigInt(match[1] ?? '0');
  const cents = BigInt((match[2] ?? '').padEnd(2, '0'));
  const minor = whole * 100n + cents;
  return minor > 0n && minor <= amountMinorMax ? minor : undefined;
}

/** Plain decimal text of minor units for operators and JSON: 150050n -> "1500.50", -5n -> "-0.05". */
export function minorToDecimalText(minor: bigint): string {
  const negative = minor < 0n;
  const absolute = negative ? -minor : minor;
  return `${negative ? '-' : ''}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
}
