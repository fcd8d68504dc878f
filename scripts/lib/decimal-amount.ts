/**
 * An amount as people type it ("12.50", "1250") turned into the exact minor-unit string the
 * back-office takes ("1250"), by text alone: a float would round 0.29 * 100 to 28.999…
 * Both currencies the wallet holds (LRD, USD) have two decimal places.
 */
const amountPattern = /^(\d{1,14})(?:\.(\d{1,2}))?$/;

export const amountCurrencies = ['LRD', 'USD'] as const;
export type AmountCurrency = (typeof amountCurrencies)[number];

/** The minor units of a positive amount with at most two decimals, or undefined when it is not one. */
export function minorUnitsOf(amount: string): string | undefined {
  const match = amountPattern.exec(amount.trim());
  if (!match) return undefined;
  const whole = match[1] ?? '0';
  const cents = (match[2] ?? '').padEnd(2, '0');
  const minor = `${whole}${cents}`.replace(/^0+/, '');
  return minor === '' ? undefined : minor;
}
