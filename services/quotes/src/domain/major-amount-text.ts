import type { MinorUnits } from '@pwa/money';

const majorAmount = /^(\d{1,13})(?:\.(\d{1,2}))?$/;

/**
 * An amount an operator types in major units ("0.50", "100", "12.5") as exact minor units, or
 * undefined when it is not such a number. Zero is allowed: a fee may be free.
 */
export function parseMajorAmountText(text: string): MinorUnits | undefined {
  const match = majorAmount.exec(text.trim());
  if (!match) return undefined;
  return BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
}
