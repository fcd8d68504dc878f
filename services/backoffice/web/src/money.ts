/**
 * Money as the API carries it: whole minor units in decimal strings. Both currencies (LRD, USD)
 * have two decimals. Parsing and formatting are string and bigint work only, never floats, so what
 * the maker types is exactly what the checker reads.
 */
export const currencies = ['USD', 'LRD'] as const;

export type AmountParse = { ok: true; minor: string } | { ok: false; problem: string };

/** "1,250.5" → "125050"; refuses more than two decimals, signs, zero and anything not a number. */
export function minorUnitsOf(typed: string): AmountParse {
  const text = typed.trim().replace(/,/g, '');
  const match = /^(\d{1,14})(?:\.(\d{0,2}))?$/.exec(text);
  if (match === null) {
    if (/^\d+\.\d{3,}$/.test(text)) return { ok: false, problem: 'At most two decimals (cents)' };
    return { ok: false, problem: 'A positive amount such as 1250.50' };
  }
  const whole = match[1] ?? '0';
  const cents = (match[2] ?? '').padEnd(2, '0');
  const minor = (BigInt(whole) * 100n + BigInt(cents)).toString();
  if (minor === '0') return { ok: false, problem: 'The amount must be more than zero' };
  return { ok: true, minor };
}

/** "125050", "USD" → "USD 1,250.50" (a minus sign kept for debits). */
export function formattedMoney(minor: string, currency: string): string {
  if (!/^-?\d+$/.test(minor)) return `${currency} ${minor}`;
  const negative = minor.startsWith('-');
  const digits = (negative ? minor.slice(1) : minor).padStart(3, '0');
  const whole = digits.slice(0, -2).replace(/^0+(?=\d)/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${currency} ${grouped}.${digits.slice(-2)}`;
}
